import { describe, expect, it } from "vitest";
import { always, createFakeJudge, type FakeAnswer } from "../../support/fake-judge";
import { criterion, flatPrice, runYaml } from "../../support/run-yaml";
import { criteriaEvals, freeformEvals } from "../../support/numbered-evals";
import { exitCodeOf } from "../../../lib/engine/run-suite";
import { CallScheduler } from "../../../lib/engine/grade/call-scheduler";

// The call scheduler beside its budget (call-scheduler.test.ts): a cancel
// mid-run, the number of judge calls in flight (--concurrency), and the stop
// signals calls wait on.

const CALL_USD = 0.003;

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
