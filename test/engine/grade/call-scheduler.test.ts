import { describe, expect, it } from "vitest";
import { always, byCriterion, createFakeJudge, type FakeAnswer } from "../../support/fake-judge";
import { criterion, flatPrice, runOne, runYaml } from "../../support/run-yaml";
import { exitCodeOf } from "../../../lib/engine/run-suite";
import { CallScheduler } from "../../../lib/engine/grade/call-scheduler";

// The run's two limits: the spending budget (--max-cost) and the number of
// judge calls in flight (--concurrency).

/** `n` free-form evals named e1..en, one judge call each. */
function freeformEvals(n: number): string {
  const evals = Array.from(
    { length: n },
    (_, i) => `
  - name: e${i + 1}
    response: "Answer ${i + 1}."
    rubric: "Answers the question."`,
  );
  return `evals:${evals.join("")}\n`;
}

/** `n` evals of two criteria each. */
function criteriaEvals(n: number): string {
  const evals = Array.from(
    { length: n },
    (_, i) => `
  - name: e${i + 1}
    response: "Answer ${i + 1}."
    rubric:
      criteria:
        - { name: accurate, description: "Is accurate." }
        - { name: brief, description: "Is brief." }`,
  );
  return `evals:${evals.join("")}\n`;
}

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

describe("cancel (an interrupted run)", () => {
  it("lets calls in flight finish and reports the rest skipped as interrupted, not as over budget", async () => {
    const abort = new AbortController();
    const judge = createFakeJudge((request) => {
      if (request.candidatePrompt.includes("Answer 1.")) abort.abort();
      return { score: 1, delayMs: 5 };
    });
    const report = await runYaml(criteriaEvals(3), {
      judge,
      concurrency: 1,
      signal: abort.signal,
      maxCostUsd: 10,
      priceOf: flatPrice(CALL_USD),
    });
    expect(judge.requests).toHaveLength(1);
    expect(report.summary).toMatchObject({ passed: 0, skipped: 3, judgeCalls: 1 });
    expect(report.results[2]).toMatchObject({
      skipKind: "interrupted",
      reason:
        "skipped (interrupted): the run was interrupted before all of this eval's judge calls could be made",
    });
    expect(report.summary.skippedBy).toEqual({ interrupted: 3 });
    expect(criterion(report.results[0]!, "brief")).toMatchObject({
      status: "skipped",
      skippedReason: "the run was interrupted before this criterion's judge call",
    });
    expect(criterion(report.results[0]!, "brief").verdicts.map((v) => v.error)).toEqual([
      "skipped (interrupted)",
    ]);
    expect(exitCodeOf(report)).toBe(1);
  });
});

describe("concurrency", () => {
  it.each([1, 3])(
    "never has more than %i judge calls in flight, and uses all of them",
    async (concurrency) => {
      const judge = createFakeJudge(always({ score: 1, delayMs: 5 }));
      const report = await runYaml(criteriaEvals(6), { judge, concurrency });
      expect(judge.requests).toHaveLength(12);
      expect(judge.maxInFlight).toBe(concurrency);
      expect(report.summary.passed).toBe(6);
    },
  );

  it("lets another call start while a call waits out a retry without its slot", async () => {
    const answers: Record<string, FakeAnswer> = {
      "Answer 1.": { score: 1, retryAfterMs: 30 },
      "Answer 2.": { score: 1 },
    };
    const judge = createFakeJudge(
      (request) => answers[/Answer \d\./.exec(request.candidatePrompt)![0]]!,
    );
    const report = await runYaml(freeformEvals(2), { judge, concurrency: 1 });
    expect(judge.events).toEqual([
      "start rubric @claude-sonnet-4-5",
      "release rubric @claude-sonnet-4-5",
      // e2 runs in the slot e1 gave back...
      "start rubric @claude-sonnet-4-5",
      "end rubric @claude-sonnet-4-5",
      // ...and e1 takes a slot again before it goes on.
      "reacquire rubric @claude-sonnet-4-5",
      "end rubric @claude-sonnet-4-5",
    ]);
    expect(judge.maxInFlight).toBe(1);
    expect(report.summary.passed).toBe(2);
  });

  it("makes a call that wants its slot back wait for one, ahead of calls not yet started", async () => {
    const events: string[] = [];
    const scheduler = new CallScheduler({ concurrency: 1 });
    const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    const a = scheduler.submit(0, async (slot) => {
      events.push("a start");
      slot.release();
      await sleep(5);
      events.push("a wants its slot");
      await slot.acquire();
      events.push("a resumes");
      return { value: "a", costUsd: 0 };
    });
    const b = scheduler.submit(0, async () => {
      events.push("b start");
      await sleep(30);
      events.push("b end");
      return { value: "b", costUsd: 0 };
    });
    const c = scheduler.submit(0, async () => {
      events.push("c start");
      return { value: "c", costUsd: 0 };
    });
    expect(await Promise.all([a, b, c])).toEqual([
      { skipped: false, value: "a" },
      { skipped: false, value: "b" },
      { skipped: false, value: "c" },
    ]);
    expect(events).toEqual([
      "a start",
      "b start",
      "a wants its slot",
      "b end",
      "a resumes",
      "c start",
    ]);
  });

  it("refuses a concurrency that is not a positive integer", () => {
    expect(() => new CallScheduler({ concurrency: 0 })).toThrow(
      "concurrency must be a positive integer",
    );
  });
});

describe("stop signals", () => {
  it("listens once per signal however many calls wait on it, and lets go when they are done", async () => {
    const getEventListeners = (await import("node:events")).EventEmitter.getEventListeners;
    const scheduler = new CallScheduler({ concurrency: 2 });
    const cancel = new AbortController();
    const shutdown = new AbortController();
    const stops = [
      { signal: cancel.signal, kind: "cancelled" as const },
      { signal: shutdown.signal, kind: "interrupted" as const },
    ];
    const warnings: Error[] = [];
    const onWarning = (w: Error) => warnings.push(w);
    process.on("warning", onWarning);
    try {
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      const calls = Array.from({ length: 40 }, () =>
        scheduler.submit(0, async () => (await gate, { value: 1, costUsd: 0 }), { stops }),
      );
      // 2 in flight, 38 waiting on the same two signals.
      expect(getEventListeners(cancel.signal, "abort").length).toBeLessThanOrEqual(1);
      expect(getEventListeners(shutdown.signal, "abort").length).toBeLessThanOrEqual(1);
      release();
      await Promise.all(calls);
      expect(getEventListeners(cancel.signal, "abort")).toHaveLength(0);
      expect(getEventListeners(shutdown.signal, "abort")).toHaveLength(0);
      await new Promise((r) => setTimeout(r, 10));
      expect(warnings.filter((w) => w.name === "MaxListenersExceededWarning")).toEqual([]);
    } finally {
      process.off("warning", onWarning);
    }
  });
});
