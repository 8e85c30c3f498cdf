import type { PgBoss } from "pg-boss";
import { loadSuite } from "../config/load-suite";
import type { SuiteConfig } from "../config/types";
import type { EvalResult } from "../engine/results/report";
import type { LivePort } from "../engine/ports/live-port";
import { runSuite } from "../engine/run-suite";
import { ReportTotals } from "../engine/trust/report-totals";
import type { PriceOf } from "../engine/plan/explain-plan";
import type { PrismaClient } from "./generated/client";
import { redactDeep } from "../engine/results/redact-secrets";
import { createRunStore, type StoredRun } from "./run-store";
import { createRunExport } from "./run-export";
import { fillReviewQueue } from "./fill-review-queue";
import { chunkOf, type ChunkJob } from "./grade-queue";

// A cancel reaches a queued run's cells not yet started at once, not one job
// at a time: their queued jobs are deleted, and they are stored as skipped
// (cancelled) in one bulk write. The results are the engine's own (runSuite
// with the cancel already signalled: no judge is called). The cells a worker
// has in hand are not touched: their jobs are active, not queued, and their
// worker stores them. Shared by the cancel route and the workers.

/**
 * Stores the run's figures and final status once every planned cell has a result. Returns whether
 * it did. The results are folded a page at a time in the suite's order (run-export.ts), each page's
 * questions for a person queued as it is read: a million results are never held.
 */
export async function finishIfAllStored(input: {
  prisma: PrismaClient;
  run: StoredRun;
  suite: SuiteConfig;
  priceOf: PriceOf;
}): Promise<boolean> {
  const { prisma, run, suite, priceOf } = input;
  if ((await prisma.evalResultRow.count({ where: { runId: run.id } })) < run.totalCells)
    return false;
  const totals = new ReportTotals(priceOf);
  for await (const page of createRunExport(prisma).resultPages(run.id))
    await fillReviewQueue(prisma, { runId: run.id, results: page.map((r) => totals.add(r)) });
  const head = totals.head({
    suite,
    toolVersion: run.config.toolVersion,
    startedAt: run.createdAt.getTime(),
    finishedAt: Date.now(),
  });
  const store = createRunStore(prisma);
  const cancelled = await store.isCancelRequested(run.id);
  // The questions were queued page by page above.
  await store.finishRun({
    runId: run.id,
    report: { ...head, results: [] },
    status: cancelled ? "cancelled" : "completed",
  });
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
  /** The run's suite as its worker read it (its dataset files); default: its stored text. */
  suite?: SuiteConfig;
}): Promise<number> {
  const store = createRunStore(input.prisma);
  const run = await store.getRun(input.runId);
  if (!run || !(await store.isCancelRequested(run.id))) return 0;
  const loaded = input.suite
    ? { ok: true as const, value: input.suite }
    : loadSuite({ text: run.yaml, file: run.config.file });
  if (!loaded.ok) return 0;
  const jobs = await input.boss.findJobs<ChunkJob>(input.queue, {
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
    const cells = new Set(
      jobs.flatMap((j) => chunkOf(j.data).cellIds).filter((id) => !stored.has(id)),
    );
    const results = await cancelledResults(run, loaded.value, cells);
    skipped = await store.saveNewResults(
      run.id,
      results.map((r) => redactDeep(r)),
    );
  }
  await finishIfAllStored({
    prisma: input.prisma,
    run,
    suite: loaded.value,
    priceOf: input.priceOf,
  });
  return skipped;
}
