import { describe, expect, it } from "vitest";
import { explainPlan, type PriceOf } from "../../../lib/engine/plan/explain-plan";
import { planSuite } from "../../../lib/engine/plan/plan-suite";
import { DEFAULT_MODEL, suiteFrom } from "../../support/run-yaml";

// The "with batches" projection halves only what Message Batches would carry:
// the Anthropic API's own models. A panel that mixes in an OpenAI-compatible
// model pays that model's calls at its standard price, with --batch or not.

const perInputToken: PriceOf = () => ({ inputPerMTok: 1_000_000, outputPerMTok: 0 });

const yaml = `
evals:
  - name: refund
    response: "Refunds take 5 days."
    judge: { panel: [claude-haiku-4-5, "openai:gpt-4.1-mini"] }
    rubric:
      criteria:
        - { name: accurate, description: "States the refund time." }
`;

function explain(batchable?: (model: string) => boolean) {
  // Every key set: the OpenAI-compatible model is planned, not deferred.
  const cells = planSuite({
    suite: suiteFrom(yaml),
    defaultModel: DEFAULT_MODEL,
    resolveModel: (model) => ({ provider: model.startsWith("openai:") ? "openai" : "anthropic" }),
  });
  return explainPlan(cells, perInputToken, batchable ? { batchable } : {});
}

describe("explain: with batches", () => {
  it("halves every model's calls when it does not know which go through batches", () => {
    const plan = explain();
    expect(plan.totals.costUsd).toBeGreaterThan(0);
    expect(plan.totals.batchUsd).toBeCloseTo(plan.totals.costUsd * 0.5, 9);
  });

  it("halves only the models batches carry: the OpenAI-compatible panel member stays at its price", () => {
    const plan = explain((model) => !model.startsWith("openai:"));
    const all = explain();
    // Two models, one call each, the same prompt: each is half the cost.
    expect(plan.totals.batchUsd).toBeCloseTo(plan.totals.costUsd * 0.75, 9);
    expect(plan.totals.batchUsd).toBeGreaterThan(all.totals.batchUsd);
  });
});
