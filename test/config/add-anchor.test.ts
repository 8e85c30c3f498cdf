import { describe, expect, it } from "vitest";
import { addAnchor, anchorIsIn } from "../../lib/config/add-anchor";
import { loadSuite } from "../../lib/config/load-suite";
import { diffLines } from "../../components/authoring/line-diff";

// "Add as anchor" adds one examples: entry and nothing else: every other line,
// comment and quote of the file is as it was.

const SUITE = `# Release notes suite: keep this comment.
rubrics:
  notes:
    criteria:
      - name: accurate   # the one that matters
        description: "States the correct change."
        examples:
          - response: "Old anchor."
            score: 1.0
      - { name: concise, description: 'Two sentences at most.' }
evals:
  - name: summary
    response: "The 2.3.0 release added per-tenant rate limits."
    rubric: { ref: notes }
  - name: inline
    response: "Another."
    rubric:
      criteria:
        - name: polite
          description: Polite.
        # trailing comment
`;

const add = (
  evalName: string,
  criterion: string,
  response = 'He said "yes"\nthen left.',
  score = 0.75,
) => addAnchor({ yaml: SUITE, evalName, criterion, response, score });
const added = (yaml: string) => diffLines(SUITE, yaml).filter((l) => l.kind !== "same");

describe("addAnchor", () => {
  it("appends to a block list of examples, through a ref, as one added line", () => {
    const result = add("summary", "accurate");
    expect(result).toMatchObject({ ok: true });
    if (!result.ok) return;
    expect(added(result.yaml)).toEqual([
      {
        kind: "add",
        newLine: 10,
        text: '          - { response: "He said \\"yes\\"\\nthen left.", score: 0.75 }',
      },
    ]);
    const loaded = loadSuite({ text: result.yaml, file: "notes.yaml" });
    const rubric = loaded.ok ? loaded.value.evals[0]!.rubric : undefined;
    expect(rubric?.kind === "criteria" && rubric.criteria[0]!.examples.at(-1)).toEqual({
      response: 'He said "yes"\nthen left.',
      score: 0.75,
    });
  });

  it("adds examples to a flow map and to a block map without any, keeping comments", () => {
    const flow = add("summary", "concise", "Short.", 1);
    expect(flow.ok && added(flow.yaml).map((l) => `${l.kind} ${l.text}`)).toEqual([
      "del       - { name: concise, description: 'Two sentences at most.' }",
      `add       - { name: concise, description: 'Two sentences at most.', examples: [{ response: "Short.", score: 1 }] }`,
    ]);
    const block = add("inline", "polite", "Thanks!", 0.5);
    expect(block.ok && added(block.yaml).map((l) => l.text)).toEqual([
      "          examples:",
      '            - { response: "Thanks!", score: 0.5 }',
    ]);
    expect(block.ok && block.yaml).toContain("        # trailing comment\n");
    expect(block.ok && block.yaml.startsWith("# Release notes suite: keep this comment.\n")).toBe(
      true,
    );
  });

  it("writes into a multi-line flow map or list by its structure, never into a comment", () => {
    const entry = '{ response: "R", score: 1 }';
    const flowMap =
      'evals:\n  - name: e\n    response: a\n    rubric:\n      criteria:\n        - { name: c,\n            description: "d" # a comment }\n          }\n';
    const flowList =
      "evals:\n  - name: e\n    response: a\n    rubric:\n      criteria:\n        - name: c\n          description: d\n          examples: [{ response: x, score: 1 } # note ]\n          ]\n";
    for (const [yaml, line] of [
      [flowMap, `            description: "d", examples: [${entry}] # a comment }`],
      [flowList, `          examples: [{ response: x, score: 1 }, ${entry} # note ]`],
    ] as const) {
      const result = addAnchor({ yaml, evalName: "e", criterion: "c", response: "R", score: 1 });
      expect(result.ok && result.yaml.split("\n")).toContain(line);
      const loaded = result.ok ? loadSuite({ text: result.yaml, file: "s.yaml" }) : undefined;
      expect(
        loaded?.ok &&
          anchorIsIn({
            suite: loaded.value,
            evalName: "e",
            criterion: "c",
            response: "R",
            score: 1,
          }),
      ).toBe(true);
    }
  });

  it("crafted responses in every layout: the result holds the anchor exactly, or is refused", () => {
    const layouts = [
      "        - name: c\n          description: d\n          examples:\n            - { response: x, score: 1 } # } ] #\n",
      "        - name: c\n          description: d\n          examples: [ # ]\n            { response: x, score: 1 } # ]\n          ]\n",
      "        - { name: c, description: d } # }\n",
      "        - { name: c,\n            description: 'd' # }\n          }\n",
      "        - name: c\n          description: |\n            d\n            # not a comment }\n        # a comment\n",
    ];
    const responses = [
      "a # b",
      "} ] , {",
      "'single' \"double\"",
      "line\nbreak\r\nand\ttab",
      "\u2028\u2029\u0085",
      "\u007f\u0080",
      "😀 \u202E",
      "- item: &a *a",
      "",
      "\\u0041",
    ];
    let refused = 0;
    for (const layout of layouts)
      for (const response of responses) {
        const yaml = `evals:\n  - name: e\n    response: a\n    rubric:\n      criteria:\n${layout}`;
        const result = addAnchor({ yaml, evalName: "e", criterion: "c", response, score: 0.5 });
        const loaded = result.ok ? loadSuite({ text: result.yaml, file: "s.yaml" }) : undefined;
        if (loaded?.ok === false) {
          refused++;
          continue; // the store refuses what does not load
        }
        const holds =
          loaded?.ok === true &&
          anchorIsIn({ suite: loaded.value, evalName: "e", criterion: "c", response, score: 0.5 });
        expect(holds, `${JSON.stringify(response)} in\n${layout}`).toBe(true);
      }
    // Only what YAML cannot hold in a quoted string (DEL, C1 controls) is refused.
    expect(refused).toBeLessThanOrEqual(layouts.length);
  });

  it("refuses what it cannot anchor, saying why", () => {
    expect(add("missing", "accurate")).toEqual({
      ok: false,
      message: 'no eval named "missing" in the suite\'s newest version',
    });
    expect(add("summary", "missing")).toEqual({
      ok: false,
      message: 'eval "summary" has no criterion named "missing" in the suite\'s newest version',
    });
    expect(add("summary", "accurate", "x", 1.5)).toEqual({
      ok: false,
      message: "an anchor's score is between 0 and 1",
    });
    expect(
      addAnchor({
        yaml: "evals:\n  - name: free\n    response: a\n    rubric: Good.\n",
        evalName: "free",
        criterion: "(rubric)",
        response: "a",
        score: 1,
      }),
    ).toMatchObject({
      ok: false,
      message: expect.stringContaining("no criteria written in this file"),
    });
  });

  it("writes the score as the anchors already there write theirs (0.0, 1.0), with more decimals only where it needs them", () => {
    const zero = add("summary", "accurate", "New anchor.", 0);
    expect(zero.ok && added(zero.yaml).map((l) => l.text)).toEqual([
      '          - { response: "New anchor.", score: 0.0 }',
    ]);
    const one = add("summary", "accurate", "New anchor.", 1);
    expect(one.ok && added(one.yaml).map((l) => l.text)).toEqual([
      '          - { response: "New anchor.", score: 1.0 }',
    ]);
    // No anchors to follow: the shortest number.
    const first = add("inline", "polite", "New anchor.", 0);
    expect(first.ok && added(first.yaml).map((l) => l.text)).toEqual([
      "          examples:",
      '            - { response: "New anchor.", score: 0 }',
    ]);
  });

  it("refuses an anchor whose response the criterion already has, saying so", () => {
    expect(add("summary", "accurate", "Old anchor.", 0)).toEqual({
      ok: false,
      message: 'already an anchor of "accurate": the same response is there with score 1.0',
    });
    const yaml =
      'evals:\n  - name: e\n    response: a\n    rubric:\n      criteria:\n        - { name: c, description: d, examples: [{ response: "Ask support maybe.", score: 0.0 }] }\n';
    expect(
      addAnchor({ yaml, evalName: "e", criterion: "c", response: "Ask support maybe.", score: 0 }),
    ).toEqual({
      ok: false,
      message: 'already an anchor of "c": the same response is there with score 0.0',
    });
    expect(
      addAnchor({ yaml, evalName: "e", criterion: "c", response: "Another.", score: 0 }),
    ).toMatchObject({
      ok: true,
      yaml: expect.stringContaining(
        '[{ response: "Ask support maybe.", score: 0.0 }, { response: "Another.", score: 0.0 }]',
      ),
    });
  });
});
