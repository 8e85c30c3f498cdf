import { describe, expect, it } from "vitest";
import { runRepeated } from "../../lib/engine/run-repeated";
import { byCriterion, createFakeJudge } from "../support/fake-judge";
import { suiteFrom, DEFAULT_MODEL } from "../support/run-yaml";
import { REPORTERS } from "../../lib/report/registry";

// `eval --repeat N`: every call N times, each result once per repeat, the
// flip rate per criterion, and repeats a judge cache cannot collapse.

const SUITE = `
evals:
  - name: answer
    response: "It is 18C in Paris."
    rubric:
      threshold: 0.6
      criteria:
        - { name: stable, description: "Names the city." }
        - { name: wobbly, description: "Is helpful." }
    matrix: { prompts: ["Weather?", "Temperature?"] }
`;

describe("runRepeated", () => {
  it("three repeats: six results, flip rates per criterion and for the eval, distinct sample numbers per repeat", async () => {
    // With concurrency 1 the calls run in order; "wobbly" fails once (its third call), so one cell flips,
    // and that cell's mean (0.9 + 0.1) / 2 = 0.5 is below the threshold 0.6 once: the eval flips too.
    const judge = createFakeJudge(
      byCriterion({
        stable: { score: 0.9 },
        wobbly: [
          { score: 0.9 },
          { score: 0.9 },
          { score: 0.1 },
          { score: 0.9 },
          { score: 0.9 },
          { score: 0.9 },
        ],
      }),
    );
    let clock = 0;
    const report = await runRepeated(
      {
        suite: suiteFrom(SUITE),
        defaultModel: DEFAULT_MODEL,
        concurrency: 1,
        toolVersion: "test",
        repeat: 3,
      },
      { judge, now: () => ++clock, priceOf: () => undefined },
    );
    expect(report.results.map((r) => r.name)).toEqual([
      "answer [prompt=#1] [repeat 1/3]",
      "answer [prompt=#2] [repeat 1/3]",
      "answer [prompt=#1] [repeat 2/3]",
      "answer [prompt=#2] [repeat 2/3]",
      "answer [prompt=#1] [repeat 3/3]",
      "answer [prompt=#2] [repeat 3/3]",
    ]);
    const flips = Object.fromEntries(report.repeat.flips.map((f) => [f.item, f]));
    expect(flips["stable"]).toMatchObject({ items: 2, flipped: 0, rate: 0 });
    // Exactly one of the two cells saw "wobbly" fail once: 1 of 2 items flipped.
    expect(flips["wobbly"]).toMatchObject({ items: 2, flipped: 1, rate: 0.5 });
    expect(flips["(eval)"]).toMatchObject({ items: 2, flipped: 1, rate: 0.5 });
    // Repeat k asks with sample numbers offset by 1000: a cache keyed on them cannot reuse across repeats.
    expect([...new Set(judge.requests.map((r) => r.sample))].sort((a, b) => a - b)).toEqual([
      1, 1001, 2001,
    ]);
    expect(REPORTERS.md.render(report, { color: false })).toContain("### Flip rate over 3 repeats");
  });
});
