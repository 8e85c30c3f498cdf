import { describe, expect, it } from "vitest";
import { always, byCriterion, createFakeJudge } from "../../support/fake-judge";
import { criterion, flatPrice, runOne, runYaml } from "../../support/run-yaml";
import { exitCodeOf } from "../../../lib/engine/run-suite";
import { criteriaEvals, freeformEvals } from "../../support/numbered-evals";

// The run's two limits: the spending budget (--max-cost), here, and the number of
// judge calls in flight (--concurrency), with cancels and stop signals, in
// call-scheduler-concurrency.test.ts.

const CALL_USD = 0.003;

describe("budget (maxCostUsd)", () => {
  it.each([1, 4])(
    "stops scheduling before spend would pass the budget; the rest are skipped, never passed (concurrency %i)",
    async (concurrency) => {
      const judge = createFakeJudge(always({ score: 1, costUsd: CALL_USD }));
      const report = await runYaml(freeformEvals(4), {
        judge,
        concurrency,
        maxCostUsd: 0.0075,
        priceOf: flatPrice(CALL_USD),
      });
      // Two calls cost 0.006; a third would take spend to 0.009.
      expect(judge.requests).toHaveLength(2);
      expect(report.results.map((r) => r.status)).toEqual([
        "passed",
        "passed",
        "skipped",
        "skipped",
      ]);
      expect(report.summary).toMatchObject({
        total: 4,
        passed: 2,
        skipped: 2,
        failed: 0,
        judgeCalls: 2,
      });
      expect(report.summary.costUsd).toBeCloseTo(0.006, 10);
      expect(report.budget?.maxCostUsd).toBe(0.0075);
      expect(report.budget?.spentUsd).toBeCloseTo(0.006, 10);
      expect(report.results[3]).toMatchObject({
        status: "skipped",
        score: null,
        display: "skipped",
        judgeCalls: 0,
        skipKind: "budget",
        reason:
          "skipped (budget): the --max-cost budget was reached before all of this eval's judge calls could be made",
        note: "the --max-cost budget was reached before all of this eval's judge calls could be made",
      });
      expect(report.summary.skippedBy).toEqual({ budget: 2 });
      expect(exitCodeOf(report)).toBe(1);
    },
  );

  it("a budget that fits the run is not turned into skips by the reservations of calls in flight", async () => {
    // Each call is estimated at 0.003 (its whole max_tokens) but costs 0.001: the
    // 9 calls cost 0.009, within a budget of 2.5 times that, at any concurrency.
    for (const concurrency of [1, 8]) {
      const judge = createFakeJudge(always({ score: 1, costUsd: 0.001, delayMs: 5 }));
      const report = await runYaml(freeformEvals(9), {
        judge,
        concurrency,
        maxCostUsd: 0.0225,
        priceOf: flatPrice(CALL_USD),
      });
      expect(report.summary, `concurrency ${concurrency}`).toMatchObject({
        passed: 9,
        skipped: 0,
        judgeCalls: 9,
      });
      expect(exitCodeOf(report)).toBe(0);
    }
  });

  it("holds calls while the reservations would pass the budget, and skips only what passes it once they clear", async () => {
    // Estimated 0.003, really 0.002: four fit in 0.009 (0.008), a fifth would
    // pass it whatever runs beside it, so one eval is skipped at any concurrency.
    for (const concurrency of [1, 4]) {
      const judge = createFakeJudge(always({ score: 1, costUsd: 0.002, delayMs: 5 }));
      const report = await runYaml(freeformEvals(5), {
        judge,
        concurrency,
        maxCostUsd: 0.009,
        priceOf: flatPrice(CALL_USD),
      });
      expect(
        report.results.map((r) => r.status),
        `concurrency ${concurrency}`,
      ).toEqual(["passed", "passed", "passed", "passed", "skipped"]);
      expect(report.summary.costUsd).toBeCloseTo(0.008, 10);
    }
  });

  it("runs a call that brings spend exactly to the budget", async () => {
    const judge = createFakeJudge(always({ score: 1, costUsd: CALL_USD }));
    const report = await runYaml(freeformEvals(3), {
      judge,
      concurrency: 1,
      maxCostUsd: 0.006,
      priceOf: flatPrice(CALL_USD),
    });
    expect(report.summary).toMatchObject({ passed: 2, skipped: 1, judgeCalls: 2 });
  });

  it("counts what calls really cost, not only the estimate", async () => {
    // Each call is estimated at 0.003 but costs 0.005: after one, a second would pass 0.0075.
    const judge = createFakeJudge(always({ score: 1, costUsd: 0.005 }));
    const report = await runYaml(freeformEvals(3), {
      judge,
      concurrency: 1,
      maxCostUsd: 0.0075,
      priceOf: flatPrice(CALL_USD),
    });
    expect(report.summary).toMatchObject({ passed: 1, skipped: 2, judgeCalls: 1 });
  });

  it("skips an eval whose calls were only partly funded, and says which criterion went ungraded", async () => {
    const judge = createFakeJudge(
      byCriterion({
        accurate: { score: 1, costUsd: CALL_USD },
        brief: { score: 1, costUsd: CALL_USD },
      }),
    );
    const report = await runYaml(criteriaEvals(2), {
      judge,
      concurrency: 1,
      maxCostUsd: 0.01,
      priceOf: flatPrice(CALL_USD),
    });
    // Three calls fit: e1 in full, and e2's first criterion.
    expect(report.summary).toMatchObject({ passed: 1, skipped: 1, judgeCalls: 3 });
    const e2 = report.results[1]!;
    expect(e2).toMatchObject({ status: "skipped", score: null, judgeCalls: 1 });
    expect(criterion(e2, "accurate")).toMatchObject({ status: "graded", score: 1 });
    // Not a judge error: the judge was never asked.
    expect(criterion(e2, "brief")).toMatchObject({ status: "skipped", score: null, passed: null });
    expect(criterion(e2, "brief").skippedReason).toContain("budget");
    expect(criterion(e2, "brief").verdicts.map((v) => v.error)).toEqual(["skipped (budget)"]);
  });

  it("runs everything when there is no budget", async () => {
    const judge = createFakeJudge(always({ score: 1, costUsd: 1 }));
    const report = await runYaml(freeformEvals(4), { judge, priceOf: flatPrice(1) });
    expect(report.summary).toMatchObject({ passed: 4, skipped: 0 });
    expect(report.budget).toBeUndefined();
    expect(exitCodeOf(report)).toBe(0);
  });

  it("skips a tree whose next question the budget refuses", async () => {
    const yaml = `
evals:
  - name: weather answered
    response: "It is 18C in Paris."
    rubric:
      tree:
        ask: "Did the answer call the get_weather tool?"
        yes:
          ask: "Does the final reply state a temperature?"
          yes: { score: 1 }
          no: { score: 0.4 }
        no: { score: 0 }
`;
    const judge = createFakeJudge(always({ score: 1, costUsd: CALL_USD }));
    const result = await runOne(yaml, { judge, maxCostUsd: 0.004, priceOf: flatPrice(CALL_USD) });
    expect(result).toMatchObject({ status: "skipped", score: null, judgeCalls: 1 });
    expect(result.tree?.path).toHaveLength(1);
  });
});
