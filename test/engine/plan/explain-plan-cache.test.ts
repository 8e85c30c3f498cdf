import { formatUsd } from "../../../lib/engine/results/format-score";
import { describe, expect, it } from "vitest";
import { explainPlan, type PriceOf } from "../../../lib/engine/plan/explain-plan";
import { renderExplain } from "../../../lib/engine/plan/render-explain";
import { planSuite } from "../../../lib/engine/plan/plan-suite";
import { DEFAULT_MODEL, suiteFrom } from "../../support/run-yaml";

// `eval --explain` prices the prompt cache (issue 10, item 5): naive (every
// input token at full price), projected with the cache (the first call of a
// shared prefix writes it at 1.25×, the calls after it read it at 0.1×, only
// where the prefix reaches the model's minimum), and an unchanged rerun.

// $1 per input token, output free: a cost in dollars is billed input tokens.
const perInputToken: PriceOf = () => ({ inputPerMTok: 1_000_000, outputPerMTok: 0 });
const MINIMUM = 1024;

/** Three criteria graded against the prompts of a matrix (two by default): 3 calls per cell. */
function suite(descriptionChars: number, prompts = 2): string {
  const description = "The answer names the change and the version it shipped in. "
    .repeat(Math.ceil(descriptionChars / 60))
    .slice(0, descriptionChars);
  return `
evals:
  - name: release note
    response: "The 2.3.0 release added per-tenant rate limits."
    matrix:
      prompts: ${JSON.stringify(Array.from({ length: prompts }, (_, i) => `Summarize the release in ${i + 1} sentences.`))}
    rubric:
      criteria:
        - { name: accurate, description: "${description}" }
        - { name: complete, description: "Mentions every notable change." }
        - { name: concise, description: "One or two sentences." }
`;
}

function explain(
  yaml: string,
  options: Parameters<typeof explainPlan>[2] = { cacheMinimumOf: () => MINIMUM },
) {
  return explainPlan(
    planSuite({ suite: suiteFrom(yaml), defaultModel: DEFAULT_MODEL }),
    perInputToken,
    options,
  );
}

describe("explain: the prompt cache", () => {
  it("projects no saving when the shared prefix is below the model's minimum", () => {
    const plan = explain(suite(200));
    expect(plan.totals.judgeCalls).toBe(6);
    expect(plan.totals.cacheInput).toEqual({
      input: plan.totals.inputTokens,
      write5m: 0,
      write1h: 0,
      read: 0,
    });
    expect(plan.totals.costUsd).toBeCloseTo(plan.totals.naiveUsd);
    expect(plan.totals.naiveUsd).toBeCloseTo(plan.totals.inputTokens);
    expect(renderExplain(plan)).toContain("with the prompt cache");
    expect(renderExplain(plan)).toContain("no prefix cached");
  });

  it("projects one write per shared prefix and reads for the calls after it, when the prefix reaches the minimum", () => {
    const plan = explain(suite(6000));
    const [first, second] = plan.cells;
    // The first cell writes the rubric and its candidate once; its two other calls read both.
    expect(first!.cacheInput.write5m).toBeGreaterThan(MINIMUM);
    expect(first!.cacheInput.read).toBe(2 * first!.cacheInput.write5m);
    // The second cell reads the rubric the first wrote and writes only its own candidate.
    expect(second!.cacheInput.write5m).toBeGreaterThan(0);
    expect(second!.cacheInput.write5m).toBeLessThan(first!.cacheInput.write5m / 5);
    const { input, write5m, read } = plan.totals.cacheInput;
    expect(input + write5m + read).toBe(plan.totals.inputTokens);
    expect(plan.totals.costUsd).toBeCloseTo(input + 1.25 * write5m + 0.1 * read);
    expect(plan.totals.costUsd).toBeLessThan(0.35 * plan.totals.naiveUsd);
    const text = renderExplain(plan);
    expect(text).toMatch(
      /cost: naive ~\$[\d,.]+, with the prompt cache ~\$[\d,.]+ \([\d,]+ input tokens written, [\d,]+ read\), with batches ~\$[\d,.]+, unchanged rerun ~\$0(?![.\d])/,
    );
    // Message Batches halve every price, the cache's multipliers on top.
    expect(text).toContain(`with batches ~${formatUsd(plan.totals.costUsd / 2)}, unchanged rerun`);
  });

  it("projects no saving for a model without a known minimum (no cacheMinimumOf: the naive cost)", () => {
    const plan = explain(suite(6000), {});
    expect(plan.totals.cacheInput.read).toBe(0);
    expect(plan.totals.costUsd).toBeCloseTo(plan.totals.naiveUsd);
  });

  it("writes the rubric for an hour (2×) when the run is expected to outlast 5 minutes", () => {
    // 20 cells × 3 calls, one at a time at ~8 s a call: 8 minutes.
    const plan = explain(suite(6000, 20), { cacheMinimumOf: () => MINIMUM, concurrency: 1 });
    expect(plan.cacheTtl).toBe("1h");
    expect(plan.totals.cacheInput.write1h).toBeGreaterThan(MINIMUM);
    expect(renderExplain(plan)).toContain("cached for 1 hour");
  });

  it("prices an unchanged rerun at 0 with the judge cache, and in full with --no-cache", () => {
    const cached = explain(suite(6000));
    expect(cached.totals.rerunUsd).toBe(0);
    const uncached = explain(suite(6000), { cacheMinimumOf: () => MINIMUM, judgeCache: false });
    expect(uncached.totals.rerunUsd).toBeCloseTo(uncached.totals.costUsd);
    expect(uncached.cells.map((c) => c.rerunUsd)).toEqual(uncached.cells.map((c) => c.costUsd));
  });
});
