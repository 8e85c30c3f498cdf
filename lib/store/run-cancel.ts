import type { PgBoss } from "pg-boss";
import { loadSuite } from "../config/load-suite";
import type { SuiteConfig } from "../config/types";
import type { EvalResult } from "../engine/results/report";
import type { LivePort } from "../engine/ports/live-port";
import { buildReport, runSuite } from "../engine/run-suite";
import { planSuite } from "../engine/plan/plan-suite";
import type { PriceOf } from "../engine/plan/explain-plan";
import type { PrismaClient } from "./generated/client";
import { redactDeep } from "../engine/results/redact-secrets";
import { createRunStore, type RunStore, type StoredRun } from "./run-store";

// A cancel reaches a queued run's cells not yet started at once, not one job
// at a time: their queued jobs are deleted, and they are stored as skipped
// (cancelled) in one bulk write. The results are the engine's own (runSuite
// with the cancel already signalled: no judge is called). The cells a worker
// has in hand are not touched: their jobs are active, not queued, and their
// worker stores them. Shared by the cancel route and the workers.

/** Stores the run's report and final status once every planned cell has a result. Returns whether it did. */
export async function finishIfAllStored(input: {
  store: RunStore;
  run: StoredRun;
  suite: SuiteConfig;
  priceOf: PriceOf;
}): Promise<boolean> {
  const { store, run, suite, priceOf } = input;
  const results = await store.results(run.id);
  if (results.length < run.totalCells) return false;
  const planned = planSuite({ suite, defaultModel: run.config.judgeModel });
  const order = new Map(planned.map((cell, i) => [cell.id, i]));
  results.sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));
  const report = buildReport({
    results,
    suite,
    toolVersion: run.config.toolVersion,
    startedAt: run.createdAt.getTime(),
    finishedAt: Date.now(),
    priceOf,
  });
  const cancelled = await store.isCancelRequested(run.id);
  await store.finishRun({ runId: run.id, report, status: cancelled ? "cancelled" : "completed" });
  return true;
}

/** The live port of a cancelled cell: its candidate (a live agent run, or a generation) is never started. */
const NOT_STARTED: LivePort = {
  run: () => Promise.resolve({ kind: "skipped", reason: "cancelled", calls: [] }),
};

/**
 * The engine's skipped (cancelled) results for these cells: runSuite with the cancel signalled, so
 * no judge is called, and no agent run or generation (without a live port, those cells would
 * read deferred, not cancelled).
 */
export async function cancelledResults(
  run: StoredRun,
  suite: SuiteConfig,
  cellIds: ReadonlySet<string>,
): Promise<EvalResult[]> {
  const cancel = new AbortController();
  cancel.abort();
  const report = await runSuite(
    {
      suite,
      defaultModel: run.config.judgeModel,
      concurrency: 1,
      toolVersion: run.config.toolVersion,
      onlyResultIds: cellIds,
      cancel: cancel.signal,
      ...(run.config.filter !== undefined ? { filter: new RegExp(run.config.filter, "i") } : {}),
    },
    {
      judge: { grade: () => Promise.reject(new Error("a cancelled cell calls no judge")) },
      live: NOT_STARTED,
      now: Date.now,
      priceOf: () => undefined,
    },
  );
  return report.results;
}

/**
 * For a run whose cancel was requested: deletes its queued jobs, stores their
 * cells as skipped (cancelled) in one write, and finishes the run if nothing
 * else is left. Returns how many cells it skipped.
 */
export async function skipQueuedCells(input: {
  prisma: PrismaClient;
  boss: PgBoss;
  queue: string;
  runId: string;
  priceOf: PriceOf;
}): Promise<number> {
  const store = createRunStore(input.prisma);
  const run = await store.getRun(input.runId);
  if (!run || !(await store.isCancelRequested(run.id))) return 0;
  const loaded = loadSuite({ text: run.yaml, file: run.config.file });
  if (!loaded.ok) return 0;
  const jobs = await input.boss.findJobs<{ runId: string; cellId: string }>(input.queue, {
    data: { runId: run.id },
    queued: true,
  });
  let skipped = 0;
  if (jobs.length > 0) {
    // Deleted first: a worker can no longer take them; a job taken meanwhile is active, and its worker stores its cell.
    await input.boss.deleteJob(
      input.queue,
      jobs.map((j) => j.id),
    );
    const stored = await store.resultKeys(run.id);
    const cells = new Set(jobs.map((j) => j.data.cellId).filter((id) => !stored.has(id)));
    const results = await cancelledResults(run, loaded.value, cells);
    skipped = await store.saveNewResults(
      run.id,
      results.map((r) => redactDeep(r)),
    );
  }
  await finishIfAllStored({ store, run, suite: loaded.value, priceOf: input.priceOf });
  return skipped;
}
