import { describe, expect, it } from "vitest";
import { checkAnchors } from "../../lib/engine/check-anchors";
import { locateAnchors } from "../../lib/engine/trust/calibration/locate-anchors";
import { createFakeJudge } from "../support/fake-judge";
import { DEFAULT_MODEL } from "../support/run-yaml";

// The editor's "Check anchors": which anchors a cursor line selects, where
// each anchor was typed (line and column from the YAML document), and the
// judged score against the label.

const candidateOf = (prompt: string) =>
  /<candidate_response>\n([\s\S]*?)\n<\/candidate_response>/.exec(prompt)?.[1] ?? "";

// Line numbers matter: the test reads them off this text.
const DRAFT = [
  "rubrics:", //                                                  1
  "  shared:", //                                                 2
  "    criteria:", //                                             3
  "      - name: grounded", //                                    4
  '        description: "Supported by the notes."', //            5
  "        examples:", //                                         6
  '          - { response: "G-good", score: 1.0 }', //            7
  "          - response: G-bad", //                               8
  "            score: 0.0", //                                    9
  "evals:", //                                                    10
  "  - name: notes", //                                           11
  '    response: "x"', //                                         12
  "    rubric:", //                                               13
  "      criteria:", //                                           14
  "        - name: polite", //                                    15
  '          description: "Polite."', //                          16
  "          examples:", //                                       17
  '            - { response: "P-good", score: 1.0 }', //          18
  "        - name: brief", //                                     19
  '          description: "Brief."', //                           20
  "  - name: shared use", //                                      21
  '    response: "y"', //                                         22
  "    rubric: { ref: shared }", //                               23
  "",
].join("\n");

const SCORES: Record<string, number> = { "G-good": 0.9, "G-bad": 0.7, "P-good": 1 };

describe("locateAnchors", () => {
  it("finds each anchor's lines through the YAML document, through refs too", () => {
    const spans = locateAnchors({ text: DRAFT, file: "s.yaml" });
    expect(
      spans.map((s) => [
        s.eval,
        s.criterion,
        s.startLine,
        s.endLine,
        s.anchors.map((a) => [a.id, a.line, a.column, a.endLine]),
      ]),
    ).toEqual([
      ["notes", "polite", 15, 18, [["1", 18, 15, 18]]],
      ["notes", "brief", 19, 20, []],
      [
        "shared use",
        "grounded",
        4,
        9,
        [
          ["1", 7, 13, 7],
          ["2", 8, 13, 9],
        ],
      ],
    ]);
  });
});

describe("checkAnchors", () => {
  it("grades only the criterion under the cursor, and places each verdict at its anchor", async () => {
    const judge = createFakeJudge((request) => ({
      score: SCORES[candidateOf(request.candidatePrompt)]!,
      reasoning: `on ${candidateOf(request.candidatePrompt)}`,
    }));
    const check = await checkAnchors(
      { text: DRAFT, file: "s.yaml", line: 8, defaultModel: DEFAULT_MODEL, toolVersion: "test" },
      { judge, now: () => 0, priceOf: () => undefined },
    );
    if (!check.ok) throw new Error("the draft should load");
    expect(judge.requests).toHaveLength(2);
    expect(check.scope).toEqual([{ eval: "shared use", criterion: "grounded" }]);
    // G-bad is labelled 0.0 and judged 0.7: off by more than 0.25.
    expect(check.anchors.map((a) => [a.line, a.label, a.judged, a.outlier, a.reasoning])).toEqual([
      [7, 1, 0.9, false, "on G-good"],
      [8, 0, 0.7, true, "on G-bad"],
    ]);
  });

  it("grades every criterion's anchors when the cursor is on none", async () => {
    const judge = createFakeJudge((request) => ({
      score: SCORES[candidateOf(request.candidatePrompt)]!,
    }));
    const check = await checkAnchors(
      { text: DRAFT, file: "s.yaml", line: 11, defaultModel: DEFAULT_MODEL, toolVersion: "test" },
      { judge, now: () => 0, priceOf: () => undefined },
    );
    if (!check.ok) throw new Error("the draft should load");
    expect(judge.requests).toHaveLength(3);
    expect(check.anchors.map((a) => [a.eval, a.criterion, a.line, a.judged])).toEqual([
      ["notes", "polite", 18, 1],
      ["shared use", "grounded", 7, 0.9],
      ["shared use", "grounded", 8, 0.7],
    ]);
  });

  it("All criteria counts a shared rubric's anchors once, not once per eval using it, and grades a preset's anchors too", async () => {
    const text = [
      DRAFT.trimEnd(),
      "  - name: shared again", //                                  24
      '    response: "z"', //                                         25
      "    rubric: { ref: shared }", //                               26
      "  - name: helpful", //                                         27
      '    response: "h"', //                                         28
      "    rubric: { preset: helpfulness }", //                       29
      "",
    ].join("\n");
    const judge = createFakeJudge((request) => ({
      score: SCORES[candidateOf(request.candidatePrompt)] ?? 0.5,
    }));
    const check = await checkAnchors(
      { text, file: "s.yaml", defaultModel: DEFAULT_MODEL, toolVersion: "test" },
      { judge, now: () => 0, priceOf: () => undefined },
    );
    if (!check.ok) throw new Error("the draft should load");
    // polite 1, grounded 2 (its rubric shared by two evals: graded and counted once), the preset's "actionable" 2.
    expect(judge.requests).toHaveLength(5);
    expect(check.anchors.map((a) => [a.eval, a.criterion, a.id, a.line])).toEqual([
      ["notes", "polite", "1", 18],
      ["shared use", "grounded", "1", 7],
      ["shared use", "grounded", "2", 8],
      ["helpful", "actionable", "1", 29],
      ["helpful", "actionable", "2", 29],
    ]);
  });

  it("with a jury, gives the jurors' mean and each juror's own score and reasoning, never one juror's under the mean", async () => {
    const juried = DRAFT.replace(
      "    rubric: { ref: shared }",
      "    rubric: { ref: shared }\n    judge: { jury: { size: 3 } }",
    );
    const scores = [0.9, 0.6, 0.3];
    // Each juror asks with its own sample number (1, 2, 3).
    const judge = createFakeJudge((request) => {
      const score = scores[request.sample - 1]!;
      return { score, reasoning: `I say ${score}` };
    });
    const check = await checkAnchors(
      { text: juried, file: "s.yaml", line: 7, defaultModel: DEFAULT_MODEL, toolVersion: "test" },
      { judge, now: () => 0, priceOf: () => undefined },
    );
    if (!check.ok) throw new Error("the draft should load");
    const anchor = check.anchors.find((a) => a.line === 7)!;
    expect(anchor.judged).toBeCloseTo(0.6, 10);
    expect(anchor.judges?.map((j) => [j.judge, j.score, j.reasoning])).toEqual([
      [`${DEFAULT_MODEL} #1`, 0.9, "I say 0.9"],
      [`${DEFAULT_MODEL} #2`, 0.6, "I say 0.6"],
      [`${DEFAULT_MODEL} #3`, 0.3, "I say 0.3"],
    ]);
    // Text formats read the same: each juror's reasoning beside its own score.
    expect(anchor.reasoning).toBe(
      `${DEFAULT_MODEL} #1 (0.90): I say 0.9\n${DEFAULT_MODEL} #2 (0.60): I say 0.6\n${DEFAULT_MODEL} #3 (0.30): I say 0.3`,
    );
  });

  it("returns the loader's issues for a draft that does not load, and calls no judge", async () => {
    const judge = createFakeJudge(() => ({ score: 1 }));
    const check = await checkAnchors(
      {
        text: "evals:\n  - name: x\n    rubric: { ref: missing }\n",
        file: "s.yaml",
        defaultModel: DEFAULT_MODEL,
        toolVersion: "test",
      },
      { judge, now: () => 0, priceOf: () => undefined },
    );
    expect(check.ok).toBe(false);
    if (!check.ok) expect(check.issues[0]?.message).toContain("missing");
    expect(judge.requests).toHaveLength(0);
  });

  // As you type (issue 12 §16): an edit's lines pick the criteria it touched, and no others.
  it("with an edit's lines, grades the criteria they touch, and nothing for an edit outside every criterion with anchors", async () => {
    const judge = createFakeJudge((request) => ({
      score: SCORES[candidateOf(request.candidatePrompt)]!,
    }));
    const deps = { judge, now: () => 0, priceOf: () => undefined };
    const touched = await checkAnchors(
      {
        text: DRAFT,
        file: "s.yaml",
        lines: { from: 17, to: 18 },
        defaultModel: DEFAULT_MODEL,
        toolVersion: "test",
      },
      deps,
    );
    if (!touched.ok) throw new Error("the draft should load");
    expect(touched.scope).toEqual([{ eval: "notes", criterion: "polite" }]);
    expect(judge.requests).toHaveLength(1);
    const outside = await checkAnchors(
      {
        text: DRAFT,
        file: "s.yaml",
        lines: { from: 12, to: 12 },
        defaultModel: DEFAULT_MODEL,
        toolVersion: "test",
      },
      deps,
    );
    if (!outside.ok) throw new Error("the draft should load");
    expect(outside.scope).toEqual([]);
    expect(outside.anchors).toEqual([]);
    expect(judge.requests).toHaveLength(1);
  });

  it("spends no more than maxCostUsd: past it, anchors are left ungraded and counted as skipped", async () => {
    const judge = createFakeJudge((request) => ({
      score: SCORES[candidateOf(request.candidatePrompt)]!,
    }));
    const priceOf = () => ({ inputPerMTok: 3, outputPerMTok: 15 });
    const check = await checkAnchors(
      {
        text: DRAFT,
        file: "s.yaml",
        line: 8,
        maxCostUsd: 0.000001,
        defaultModel: DEFAULT_MODEL,
        toolVersion: "test",
      },
      { judge, now: () => 0, priceOf },
    );
    if (!check.ok) throw new Error("the draft should load");
    expect(judge.requests).toHaveLength(0);
    expect(check.result.skipped).toBe(2);
    expect(check.anchors.map((a) => a.judged)).toEqual([null, null]);
  });
});
