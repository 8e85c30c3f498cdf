import { describe, expect, it } from "vitest";
import { always, createFakeJudge } from "../../support/fake-judge";
import { explainYaml, flatPrice, runYaml } from "../../support/run-yaml";
import { EXPECTED_OUTPUT_TOKENS, type PriceOf } from "../../../lib/engine/plan/explain-plan";
import { renderExplain } from "../../../lib/engine/plan/render-explain";
import { tokensOf } from "../../../lib/engine/plan/estimate-requests";

// `eval --explain`: what a run would grade and how many judge calls it would
// make, without asking any judge.

const SONNET = "claude-sonnet-4-5";
const HAIKU = "claude-haiku-4-5";

// 2 prompt cells × a panel of 2 models × a jury of 3 × 2 criteria = 24 calls.
const fanned = `
evals:
  - name: summary quality
    response: "The 2.3.0 release added per-tenant rate limits."
    judge:
      panel: [${SONNET}, ${HAIKU}]
      jury: { size: 3, consensus: 0.66 }
    matrix:
      prompts: ["Summarize the release.", "Summarize the release in one sentence."]
    rubric:
      criteria:
        - name: accurate
          description: "States the correct change."
        - name: complete
          description: "Mentions every notable change."
        - name: apologizes on error
          description: "Apologizes."
          when: { contains: "error" }
`;

// Longest path: three questions (yes, then no); the shortest is one.
const tree = `
evals:
  - name: weather answered
    response: "I called get_weather: 18C."
    judge: { jury: { size: 2 } }
    rubric:
      tree:
        ask: "Did the answer call the get_weather tool?"
        yes:
          ask: "Does the final reply state a temperature?"
          yes: { score: 1.0 }
          no:
            ask: "Does it say why not?"
            yes: { score: 0.6 }
            no: { score: 0.4 }
        no: { score: 0.0 }
`;

describe("explain", () => {
  it("counts criteria × jury × panel × cells, leaving out criteria a fixed response's when: skips", () => {
    const plan = explainYaml(fanned);
    expect(plan.cells.map((c) => [c.name, c.judgeCalls])).toEqual([
      ["summary quality [prompt=#1]", 12],
      ["summary quality [prompt=#2]", 12],
    ]);
    expect(plan.totals).toMatchObject({ cells: 2, deferred: 0, judgeCalls: 24 });
    expect(plan.cells[0]!.judges).toEqual([
      `${SONNET} #1`,
      `${SONNET} #2`,
      `${SONNET} #3`,
      `${HAIKU} #1`,
      `${HAIKU} #2`,
      `${HAIKU} #3`,
    ]);
  });

  it("counts a tree's longest path, per juror", () => {
    const plan = explainYaml(tree);
    expect(plan.totals.judgeCalls).toBe(6);
    expect(plan.cells[0]!.rubric).toContain("  3 questions on the longest path");
  });

  it("asks no judge, and projects exactly the calls a run then makes", async () => {
    const judge = createFakeJudge(always({ score: 1 }));
    const plan = explainYaml(fanned + tree.replace("evals:\n", ""));
    expect(judge.requests).toHaveLength(0);
    // A judge that answers yes everywhere walks the tree's yes branch: 2 questions, not 3.
    const walkNo = createFakeJudge((r) => ({
      score: r.taskPrompt.includes("state a temperature") ? 0 : 1,
    }));
    const report = await runYaml(fanned + tree.replace("evals:\n", ""), { judge: walkNo });
    expect(report.summary.judgeCalls).toBe(plan.totals.judgeCalls);
    expect(walkNo.requests).toHaveLength(30);
  });

  it("projects the input tokens of exactly the requests a run sends", async () => {
    const plan = explainYaml(fanned);
    const judge = createFakeJudge(always({ score: 1 }));
    await runYaml(fanned, { judge });
    expect(judge.requests).toHaveLength(24);
    expect(plan.totals.inputTokens).toBe(
      judge.requests.reduce((n, r) => n + tokensOf(r).inputTokens, 0),
    );
  });

  it("builds a rubric's prompts once, not once per cell: 2,500 cells of a 1 MB rubric answer at once", () => {
    const anchors = Array.from(
      { length: 50 },
      () => `            - { response: "${"y".repeat(20_000)}", score: 0.5 }`,
    ).join("\n");
    const axis = (prefix: string) =>
      `[${Array.from({ length: 50 }, (_, i) => `${prefix}${i}`).join(", ")}]`;
    const yaml = `evals:\n  - name: a\n    response: hi\n    matrix:\n      models: ${axis("m")}\n      prompts: ${axis("p")}\n    rubric:\n      criteria:\n        - name: c\n          description: d\n          examples:\n${anchors}\n`;
    const started = Date.now();
    const plan = explainYaml(yaml);
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(plan.totals).toMatchObject({ cells: 2_500, judgeCalls: 2_500 });
    // Each call carries the whole rubric: 50 anchors of 20,000 characters, about 250,000 tokens.
    expect(plan.totals.inputTokens / 2_500).toBeGreaterThan(250_000);
  });

  it("shows a long free-form rubric by its start and length, so a plan of many cells stays printable", () => {
    const axis = (prefix: string, n: number) =>
      `[${Array.from({ length: n }, (_, i) => `${prefix}${i}`).join(", ")}]`;
    const yaml = `evals:\n  - name: a\n    response: hi\n    matrix: { models: ${axis("m", 50)}, prompts: ${axis("p", 20)} }\n    rubric: "${"r".repeat(600_000)}"\n`;
    const text = renderExplain(explainYaml(yaml));
    expect(text).toContain(`  "${"r".repeat(200)}… (600000 characters)"`);
    expect(text.length).toBeLessThan(2_000_000);
  });

  it("projects the cost from the price of each call", () => {
    const plan = explainYaml(fanned, { priceOf: flatPrice(0.003) });
    expect(plan.totals.outputTokens).toBe(24 * EXPECTED_OUTPUT_TOKENS);
    expect(plan.totals.costUsd).toBeCloseTo(24 * 0.003, 10);
    expect(plan.totals.unpricedModels).toEqual([]);
  });

  it("names the models it has no price for, and does not guess their cost", () => {
    const plan = explainYaml(fanned);
    expect(plan.cells[0]!.costUsd).toBeNull();
    expect(plan.totals.unpricedModels).toEqual([HAIKU, SONNET]);
    expect(renderExplain(plan)).toContain(
      `No price known for: ${HAIKU}, ${SONNET} (not counted in the cost).`,
    );
  });

  it("an eval mixing priced and unpriced judges keeps the priced part and counts the unpriced calls", () => {
    const onlySonnet: PriceOf = (model) => (model === SONNET ? flatPrice(0.003)(model) : undefined);
    const plan = explainYaml(fanned, { priceOf: onlySonnet });
    // Per cell: 2 criteria × a jury of 3, for each of the two panel models.
    expect(plan.cells[0]!.costUsd).toBeCloseTo(6 * 0.003, 10);
    expect(plan.cells[0]!.unpricedCalls).toBe(6);
    expect(plan.totals.unpricedModels).toEqual([HAIKU]);
    expect(renderExplain(plan)).toContain(
      "judge calls: 12, ~7,104 input + 3,600 output tokens, ~$0.0180 + 6 unpriced calls (model not in the pricing table)",
    );
  });

  it("shows what each cell grades and a one-line plan", () => {
    const text = renderExplain(explainYaml(fanned, { priceOf: flatPrice(0.003) }));
    expect(text).toContain(
      "summary quality [prompt=#2]\n  criteria rubric (inline), threshold 0.70, weighted average",
    );
    expect(text).toContain('  - apologizes on error (weight 1, when contains "error")');
    expect(text).toContain("  candidate: fixed response (47 chars), prompt #2");
    expect(text).toMatch(
      /^Plan: \d+ evals?, 2 cells, 24 judge calls, ~[\d,]+ input \+ 7,200 output tokens, projected cost ~\$0\.0720$/m,
    );
  });

  it("plans no calls for a deferred eval", () => {
    const plan = explainYaml(`
evals:
  - name: books the meeting
    prompt: "Book a meeting with Alice."
    rubric: "Booked."
`);
    expect(plan.cells[0]).toMatchObject({
      judgeCalls: 0,
      deferReason: "no response to grade and no server to run the prompt against",
    });
    expect(plan.totals).toMatchObject({ deferred: 1, judgeCalls: 0 });
    expect(renderExplain(plan)).toContain(
      "  deferred: no response to grade and no server to run the prompt against",
    );
  });
});
