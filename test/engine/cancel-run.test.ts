import { describe, expect, it } from "vitest";
import { always, createFakeJudge } from "../support/fake-judge";
import { runYaml } from "../support/run-yaml";
import { exitCodeOf } from "../../lib/engine/run-suite";
import { CallScheduler } from "../../lib/engine/grade/call-scheduler";

// Cancel stops calls, not just jobs: a cancel request (the dashboard's Cancel,
// `rubric-studio cancel`) or a worker's shutdown stops the scheduling of new
// judge calls inside a running cell, and what was not graded is reported
// skipped (cancelled) or skipped (interrupted), never passed.

/** One eval of `criteria` criteria graded by a jury of `jury`: criteria × jury judge calls. */
function juryEval(name: string, criteria = 12, jury = 3): string {
  const lines = Array.from(
    { length: criteria },
    (_, i) => `        - { name: c${i + 1}, description: "Meets point ${i + 1}." }`,
  );
  return `  - name: ${name}
    response: "An answer about ${name}."
    judge:
      jury: { size: ${jury} }
    rubric:
      criteria:
${lines.join("\n")}
`;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("cancel inside a running cell", () => {
  it("stops a 36-call jury eval mid-way: only the calls in flight are made, and the eval is skipped (cancelled), not passed", async () => {
    const judge = createFakeJudge(always({ score: 0.9, delayMs: 60 }));
    const cancel = new AbortController();
    const running = runYaml(`evals:\n${juryEval("release notes")}`, {
      judge,
      concurrency: 8,
      cancel: cancel.signal,
    });
    await sleep(20); // the first 8 calls are in flight
    cancel.abort();
    const report = await running;

    expect(judge.requests).toHaveLength(8);
    const result = report.results[0]!;
    expect(result).toMatchObject({
      status: "skipped",
      skipKind: "cancelled",
      score: null,
      judgeCalls: 8,
      reason:
        "skipped (cancelled): the run was cancelled before all of this eval's judge calls could be made",
    });
    expect(result.criteria.filter((c) => c.status === "skipped")).not.toHaveLength(0);
    expect(
      result.criteria
        .flatMap((c) => c.verdicts.map((v) => v.error))
        .filter((e) => e === "skipped (cancelled)"),
    ).toHaveLength(28);
    expect(report.summary).toMatchObject({
      passed: 0,
      skipped: 1,
      skippedBy: { cancelled: 1 },
      judgeCalls: 8,
    });
    expect(exitCodeOf(report)).toBe(1);
  });

  it("refuses the queued calls at once, without waiting for the calls in flight to free a slot", async () => {
    const judge = createFakeJudge(always({ score: 0.9, delayMs: 400 }));
    const cancel = new AbortController();
    const started = Date.now();
    const running = runYaml(`evals:\n${juryEval("slow", 4, 1)}`, {
      judge,
      concurrency: 1,
      cancel: cancel.signal,
    });
    await sleep(20);
    cancel.abort();
    const report = await running;
    // The one call in flight finishes (400 ms); nothing else is started after it.
    expect(judge.requests).toHaveLength(1);
    expect(Date.now() - started).toBeLessThan(800);
    expect(report.results[0]).toMatchObject({ status: "skipped", skipKind: "cancelled" });
  });

  it("cancels one run on a scheduler shared with another (a worker's jobs): the other makes all its calls and passes", async () => {
    const scheduler = new CallScheduler({ concurrency: 4 });
    const cancelled = createFakeJudge(always({ score: 0.9, delayMs: 30 }));
    const other = createFakeJudge(always({ score: 0.9, delayMs: 30 }));
    const cancel = new AbortController();
    const a = runYaml(`evals:\n${juryEval("cancelled run", 4, 3)}`, {
      judge: cancelled,
      scheduler,
      concurrency: 4,
      cancel: cancel.signal,
    });
    const b = runYaml(`evals:\n${juryEval("other run", 4, 3)}`, {
      judge: other,
      scheduler,
      concurrency: 4,
    });
    await sleep(10);
    cancel.abort();
    const [ra, rb] = await Promise.all([a, b]);
    expect(ra.results[0]).toMatchObject({ status: "skipped", skipKind: "cancelled" });
    expect(cancelled.requests.length).toBeLessThan(12);
    expect(rb.results[0]).toMatchObject({ status: "passed" });
    expect(other.requests).toHaveLength(12);
  });

  it("reports a worker's shutdown as skipped (interrupted)", async () => {
    const judge = createFakeJudge(always({ score: 0.9, delayMs: 40 }));
    const shutdown = new AbortController();
    const running = runYaml(`evals:\n${juryEval("shut down")}`, {
      judge,
      concurrency: 8,
      shutdown: shutdown.signal,
    });
    await sleep(10);
    shutdown.abort();
    const report = await running;
    expect(judge.requests).toHaveLength(8);
    expect(report.results[0]).toMatchObject({
      status: "skipped",
      skipKind: "interrupted",
      reason:
        "skipped (interrupted): the run was interrupted before all of this eval's judge calls could be made",
    });
  });

  it("refuses every call of a run cancelled before it started", async () => {
    const judge = createFakeJudge(always({ score: 0.9 }));
    const cancel = new AbortController();
    cancel.abort();
    const report = await runYaml(`evals:\n${juryEval("late")}`, {
      judge,
      concurrency: 8,
      cancel: cancel.signal,
    });
    expect(judge.requests).toHaveLength(0);
    expect(report.results[0]).toMatchObject({
      status: "skipped",
      skipKind: "cancelled",
      judgeCalls: 0,
    });
  });
});
