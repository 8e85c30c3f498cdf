import { costText } from "../../components/results/format";
import { describe, expect, it } from "vitest";
import { EVAL_STATUSES, type EvalResult } from "../../lib/engine/results/report";
import type { PairwiseOutcome } from "../../lib/engine/results/pairwise-types";
import type { ReviewOutcome } from "../../lib/engine/results/review-types";
import { createPositionBiasViews } from "../../lib/store/position-bias";
import { runProgress } from "../../lib/store/run-progress";
import { priceOfStoredCall as priceOf } from "../../lib/judge/provider-resolution";
import { createRunQueries } from "../../lib/store/run-queries";
import { createRunStore } from "../../lib/store/run-store";
import { createRunViews } from "../../lib/store/run-views";
import { createSuiteStore } from "../../lib/store/suite-store";
import { sampleResults } from "../support/sample-report";
import { useTestDatabase } from "../support/test-database";

// The figures behind the run page, the runs list and a suite's history
// (issue 12, items 3, 4, 6 and 17), read from runs stored the way a run
// stores them: one snapshot whose counts, results and judge calls agree
// mid-run; a comparison's winner and a review's decision in the table's rows;
// each run's suite version; a failing last run told apart in the suites list;
// position bias pooled over a run and over a suite's runs.

const database = useTestDatabase();
const CONFIG = {
  file: "suite.yaml",
  toolVersion: "0.1.0",
  judgeModel: "claude-sonnet-4-6",
  concurrency: 4,
  timeoutSeconds: 60,
};

function result(
  id: string,
  status: EvalResult["status"],
  extra: Partial<EvalResult> = {},
): EvalResult {
  const template = sampleResults().find((r) => r.status === "passed")!;
  return { ...template, id, name: id, eval: id, status, ...extra };
}

function pairwise(
  id: string,
  bias: { biased: number; comparable: number; favoredFirst: number },
): EvalResult {
  const outcome = {
    labels: { a: "v1", b: "v2" },
    result: {
      comparisons: [],
      win_rate_a: 0,
      win_rate_b: 1,
      tie_rate: 0,
      overall_winner: "B",
      confidence: 0.9,
    },
    pairs: [],
    wilson: null,
    positionBias: {
      rate: bias.comparable ? bias.biased / bias.comparable : null,
      ...bias,
      favoredSecond: 0,
    },
    categories: [],
  } satisfies PairwiseOutcome;
  return result(id, "passed", {
    score: 0,
    threshold: 0.7,
    rubric: { kind: "pairwise", source: { type: "inline" } },
    pairwise: outcome,
  });
}

async function newRun(suite: string, yaml: string, plannedJudgeCalls?: number) {
  const store = createRunStore(database.prisma);
  const version = await store.saveSuiteVersion({ name: suite, yaml });
  const runId = await store.createRun({
    ...version,
    startedBy: "dashboard",
    config: { ...CONFIG, ...(plannedJudgeCalls ? { plannedJudgeCalls } : {}) },
    totalCells: 5,
  });
  return { store, runId, ...version };
}

async function linkCall(runId: string, key: string, tokens: number, reused = false) {
  await database.prisma.judgeCall.upsert({
    where: { key },
    create: {
      key,
      status: "done",
      model: "claude-sonnet-4-6",
      templateVersion: "t1",
      inputTokens: tokens,
      outputTokens: 10,
      costUsd: 0.001,
    },
    update: {},
  });
  await database.prisma.runCall.create({ data: { runId, callKey: key, reused } });
}

describe("a running run's snapshot", () => {
  it("counts results, outcomes and judge calls from one read, so the page's figures agree", async () => {
    const { store, runId } = await newRun("live.yaml", "evals: []\n", 36);
    await store.saveResult(runId, result("one", "failed"));
    for (let i = 0; i < 7; i++) await linkCall(runId, `live-call-${i}`, 100);
    await linkCall(runId, "live-call-reused", 100, true);

    const overview = (await createRunViews(database.prisma).runOverview(runId))!;
    const snapshot = runProgress({ run: overview, now: Date.now(), priceOf });
    expect(snapshot).toMatchObject({
      status: "running",
      finished: false,
      done: 1,
      total: 5,
      calls: { done: 8, planned: 36 },
      judgeCalls: 7,
      reusedCalls: 1,
    });
    // The cards' counts add up to the results done: "1 of 5" and "Failed 1", never "0 of 5".
    expect(EVAL_STATUSES.reduce((sum, s) => sum + snapshot.counts[s], 0)).toBe(snapshot.done);
    expect(snapshot.counts.failed).toBe(1);
    // Tokens of the calls made so far (a reused verdict costs none), not the zero the run's totals hold until it ends.
    expect(snapshot.tokens.input).toBe(700);
    expect(snapshot.elapsedSeconds).not.toBeNull();
  });

  it("once finished, counts the verdicts the cache reused among the calls done, as it did while running", async () => {
    const { store, runId } = await newRun("reused.yaml", "evals: [] # reused\n", 25);
    const report = {
      summary: {
        passed: 5,
        failed: 0,
        deferred: 0,
        judgeErrors: 0,
        skipped: 0,
        judgeCalls: 0,
        costUsd: 0,
        usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
      },
    };
    await store.finishRun({
      runId,
      report: report as never,
      status: "completed",
      reused: { calls: 25, savedUsd: 0.05 },
    });
    const snapshot = runProgress({
      run: (await createRunViews(database.prisma).runOverview(runId))!,
      now: Date.now(),
      priceOf,
    });
    expect(snapshot).toMatchObject({
      finished: true,
      calls: { done: 25, planned: 25 },
      judgeCalls: 0,
      reusedCalls: 25,
    });
  });
});

describe("what the caches saved, on the run page", () => {
  // claude-sonnet-4-6 at $3 / MTok input: 500,000 tokens read save 500k × $3 × 0.9 = $1.35,
  // 100,000 written cost 100k × $3 × 0.25 = $0.075 more: net $1.275. A reused verdict saves what its call cost ($0.04).
  // An unpriced model's tokens count, and its savings read unpriced.
  async function stored(
    runId: string,
    key: string,
    data: { model: string; read?: number; write?: number; cost: number | null; reused?: boolean },
  ) {
    await database.prisma.judgeCall.create({
      data: {
        key,
        status: "done",
        model: data.model,
        templateVersion: "t1",
        inputTokens: 100,
        outputTokens: 10,
        cacheReadTokens: data.read ?? 0,
        cacheWriteTokens: data.write ?? 0,
        costUsd: data.cost,
      },
    });
    await database.prisma.runCall.create({
      data: { runId, callKey: key, reused: data.reused ?? false },
    });
  }

  it("prices the prompt cache's reads and writes and the reused verdicts from the stored calls, running or finished", async () => {
    const { store, runId } = await newRun("savings.yaml", "evals: [] # savings\n", 4);
    await stored(runId, "save-write", { model: "claude-sonnet-4-6", write: 100_000, cost: 0.4 });
    await stored(runId, "save-read", { model: "claude-sonnet-4-6", read: 500_000, cost: 0.2 });
    await stored(runId, "save-reused", { model: "claude-sonnet-4-6", cost: 0.04, reused: true });
    await stored(runId, "save-local", { model: "local:qwen3-8b", read: 7_000, cost: null });
    const running = runProgress({
      run: (await createRunViews(database.prisma).runOverview(runId))!,
      now: Date.now(),
      priceOf,
    });
    expect(running.savings.promptCache).toEqual({
      readTokens: 507_000,
      writeTokens: 100_000,
      reads: { usd: expect.closeTo(1.35, 10), unpriced: true },
      writes: { usd: expect.closeTo(-0.075, 10), unpriced: false },
      net: { usd: expect.closeTo(1.275, 10), unpriced: true },
    });
    expect(running.savings.judgeCache).toEqual({ calls: 1, saved: { usd: 0.04, unpriced: false } });
    expect(running.unpricedCalls).toBe(1);
    const report = {
      summary: {
        passed: 0,
        failed: 0,
        deferred: 0,
        judgeErrors: 0,
        skipped: 0,
        judgeCalls: 3,
        costUsd: 0.6,
        usage: { input: 300, output: 30, cacheRead: 507_000, cacheWrite: 100_000 },
      },
    };
    await store.finishRun({
      runId,
      report: report as never,
      status: "completed",
      reused: { calls: 1, savedUsd: 0.04 },
    });
    const finished = runProgress({
      run: (await createRunViews(database.prisma).runOverview(runId))!,
      now: Date.now(),
      priceOf,
    });
    expect(finished.savings).toEqual(running.savings);
    expect(finished.unpricedCalls).toBe(1);
    // The runs list says so too: "$0.6000 + unpriced", never the priced part alone.
    const listed = await createRunViews(database.prisma).listRuns({ limit: 500 });
    const row = listed.find((r) => r.id === runId)!;
    expect(row.unpricedCalls).toBe(1);
    expect(costText(row)).toBe("$0.6000 + unpriced");
  });
});

describe("a queued run's clock", () => {
  it("starts with its first cell, not again with every cell that starts after it (the ETA's elapsed time)", async () => {
    const store = createRunStore(database.prisma);
    const version = await store.saveSuiteVersion({
      name: "clock.yaml",
      yaml: "evals: [] # clock\n",
    });
    const runId = await store.createRun({
      ...version,
      startedBy: "dashboard",
      config: CONFIG,
      totalCells: 5,
      status: "queued",
    });
    await store.setStatus(runId, "running");
    const first = (await database.prisma.run.findUnique({ where: { id: runId } }))!.startedAt!;
    await new Promise((resolve) => setTimeout(resolve, 30));
    await store.setStatus(runId, "running");
    expect((await database.prisma.run.findUnique({ where: { id: runId } }))!.startedAt).toEqual(
      first,
    );
  });
});

describe("the results table's rows", () => {
  it("carry a comparison's winner and a review's decision, which have no threshold to meet", async () => {
    const review = { report: { decision: { status: "human_review" } } } as unknown as ReviewOutcome;
    const { store, runId } = await newRun("outcomes.yaml", "evals: [] # outcomes\n");
    await store.saveResult(
      runId,
      pairwise("compare v1 v2", { biased: 1, comparable: 4, favoredFirst: 1 }),
    );
    await store.saveResult(
      runId,
      result("prd review", "passed", {
        score: 0.5,
        rubric: { kind: "categories", source: { type: "inline" } },
        review,
      }),
    );
    await store.saveResult(runId, result("plain", "passed", { score: 0.9 }));
    const page = await createRunQueries(database.prisma).runResultsPage({ runId, pageSize: 10 });
    const byName = Object.fromEntries(page.rows.map((r) => [r.name, r]));
    expect(byName["compare v1 v2"]!.comparison).toEqual({
      winner: "B",
      labels: { a: "v1", b: "v2" },
    });
    expect(byName["compare v1 v2"]!.decision).toBeNull();
    expect(byName["prd review"]!.decision).toBe("human_review");
    expect(byName["plain"]!).toMatchObject({ comparison: null, decision: null, score: 0.9 });
  });
});

describe("runs list and history", () => {
  it("names each run's suite version, numbered as the versions panel numbers them", async () => {
    const first = await newRun("versioned.yaml", "evals: [] # v1\n");
    const second = await newRun("versioned.yaml", "evals: [] # v2\n");
    const runs = await createRunViews(database.prisma).listRuns({
      suiteId: first.suiteId,
      limit: 10,
    });
    expect(Object.fromEntries(runs.map((r) => [r.id, r.version]))).toEqual({
      [first.runId]: { id: first.suiteVersionId, number: 1 },
      [second.runId]: { id: second.suiteVersionId, number: 2 },
    });
  });

  it("gives the suites list its last run's failures, so it is not a plain completed", async () => {
    const { store, runId } = await newRun("failing.yaml", "evals: [] # failing\n");
    const report = {
      summary: {
        passed: 3,
        failed: 2,
        deferred: 0,
        judgeErrors: 1,
        skipped: 0,
        judgeCalls: 6,
        costUsd: 0,
        usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
      },
    };
    await store.finishRun({
      runId,
      report: report as never,
      status: "completed",
      reused: { calls: 0, savedUsd: 0 },
    });
    const listed = (await createSuiteStore(database.prisma).listSuites()).find(
      (s) => s.name === "failing.yaml",
    )!;
    expect(listed.lastRun).toMatchObject({
      id: runId,
      status: "completed",
      passed: 3,
      failed: 2,
      judgeErrors: 1,
    });
  });
});

describe("position bias across comparisons", () => {
  it("pools a run's comparisons by their pairs, and lists a suite's runs newest first", async () => {
    const older = await newRun("bias.yaml", "evals: [] # bias\n");
    await older.store.saveResult(
      older.runId,
      pairwise("cmp a", { biased: 1, comparable: 4, favoredFirst: 1 }),
    );
    await older.store.saveResult(
      older.runId,
      pairwise("cmp b", { biased: 0, comparable: 4, favoredFirst: 0 }),
    );
    await older.store.saveResult(older.runId, result("not a comparison", "passed"));
    const newer = await newRun("bias.yaml", "evals: [] # bias\n");
    await newer.store.saveResult(
      newer.runId,
      pairwise("cmp a", { biased: 3, comparable: 4, favoredFirst: 3 }),
    );
    await database.prisma.run.update({
      where: { id: newer.runId },
      data: { createdAt: new Date(Date.now() + 60_000) },
    });
    const views = createPositionBiasViews(database.prisma);

    expect(await views.runPositionBias(older.runId)).toEqual({
      rate: 1 / 8,
      biased: 1,
      comparable: 8,
      favoredFirst: 1,
      favoredSecond: 0,
      comparisons: 2,
    });
    const history = await views.suitePositionBias({ suiteId: older.suiteId, limit: 10 });
    expect(history.map((h) => [h.runId, h.rate])).toEqual([
      [newer.runId, 0.75],
      [older.runId, 0.125],
    ]);
    const plain = await newRun("no-bias.yaml", "evals: []\n");
    expect(await views.runPositionBias(plain.runId)).toBeUndefined();
  });
});

describe("a heatmap cell's figures", () => {
  it("count passed, failed and judge errors apart, so the cell's pass rate is the runs list's (deferred and skipped not graded)", async () => {
    const { store, runId } = await newRun("cells.yaml", "evals: [] # cells\n");
    const cell = { model: "claude-haiku-4-5", promptIndex: 1 };
    const statuses: EvalResult["status"][] = [
      "passed",
      "failed",
      "judge_error",
      "deferred",
      "skipped",
    ];
    for (const status of statuses)
      await store.saveResult(
        runId,
        result(`cell-${status}`, status, { cell: cell as EvalResult["cell"] }),
      );
    const [figures] = await createRunViews(database.prisma).matrixCells({ runId });
    expect(figures).toMatchObject({
      model: "claude-haiku-4-5",
      promptIndex: 1,
      results: 5,
      passed: 1,
      failed: 1,
      judge_error: 1,
    });
  });
});
