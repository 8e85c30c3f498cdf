import type { PgBoss } from "pg-boss";
import { loadSuite } from "../config/load-suite";
import type { SuiteConfig } from "../config/types";
import type { EvalResult } from "../engine/results/report";
import type { LivePort } from "../engine/ports/live-port";
import type { PlannedCell } from "../engine/grade/planned-cell";
import { planCells, type PlanOptions } from "../engine/plan/plan-suite";
import { streamSuite } from "../engine/stream-suite";
import { ReportTotals } from "../engine/trust/report-totals";
import type { PriceOf } from "../engine/plan/explain-plan";
import type { PrismaClient } from "./generated/client";
import { redactDeep } from "../engine/results/redact-secrets";
import { createRunStore, type StoredRun } from "./run-store";
import { createRunExport } from "./run-export";
import { fillReviewQueue } from "./fill-review-queue";
import { chunkOf, type ChunkJob } from "./grade-queue";
import type { ComputeAgreement } from "./run-agreement";

// A cancel reaches a queued run's cells not yet started at once, not one job
// at a time: their queued jobs are deleted, and they are stored as skipped
// (cancelled), a bulk write per page of CANCEL_PAGE cells (a million queued
// cells are never held as results). The results are the engine's own
// (streamSuite with the cancel already signalled: no judge is called). The cells a worker
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
  /** How the run's judge agreement is computed when it finishes (default: on this thread). */
  computeAgreement?: ComputeAgreement;
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
    ...(input.computeAgreement ? { computeAgreement: input.computeAgreement } : {}),
  });
  return true;
}

/** The live port of a cancelled cell: its candidate (a live agent run, or a generation) is never started. */
const NOT_STARTED: LivePort = {
  run: () => Promise.resolve({ kind: "skipped", reason: "cancelled", calls: [] }),
};

/** Cells planned, results built and written per page of a cancel (what is held at once). */
export const CANCEL_PAGE = 250;

/**
 * The engine's skipped (cancelled) results for these cells, a page of `size` at a time, the
 * plan walked once: streamSuite with the cancel signalled, so no judge is called, and no agent
 * run or generation (without a live port, those cells would read deferred, not cancelled).
 */
export async function* cancelledPages(input: {
  run: StoredRun;
  suite: SuiteConfig;
  cellIds: ReadonlySet<string>;
  size?: number;
}): AsyncGenerator<EvalResult[]> {
  const { run, cellIds } = input;
  const size = input.size ?? CANCEL_PAGE;
  const plan: PlanOptions = {
    suite: input.suite,
    defaultModel: run.config.judgeModel,
    ...(run.config.filter !== undefined ? { filter: new RegExp(run.config.filter, "i") } : {}),
  };
  let page: PlannedCell[] = [];
  for await (const cell of planCells(plan)) {
    if (!cellIds.has(cell.id)) continue;
    page.push(cell);
    if (page.length < size) continue;
    yield await cancelledOf({ run, plan, cells: page });
    page = [];
  }
  if (page.length > 0) yield await cancelledOf({ run, plan, cells: page });
}

async function cancelledOf(input: {
  run: StoredRun;
  plan: PlanOptions;
  cells: PlannedCell[];
}): Promise<EvalResult[]> {
  const { run, cells } = input;
  const cancel = new AbortController();
  cancel.abort();
  const results: EvalResult[] = [];
  await streamSuite(
    {
      ...input.plan,
      concurrency: 1,
      toolVersion: run.config.toolVersion,
      cancel: cancel.signal,
      source: { cells: cells.length, judgeCalls: 0, each: cells },
    },
    {
      judge: { grade: () => Promise.reject(new Error("a cancelled cell calls no judge")) },
      live: NOT_STARTED,
      now: Date.now,
      priceOf: () => undefined,
      onEvent: (event) => void (event.type === "result" && results.push(event.result)),
    },
  );
  return results;
}

/** The skipped (cancelled) results of a few cells (a chunk's), at once. */
export async function cancelledResults(
  run: StoredRun,
  suite: SuiteConfig,
  cellIds: ReadonlySet<string>,
): Promise<EvalResult[]> {
  const results: EvalResult[] = [];
  for await (const page of cancelledPages({ run, suite, cellIds })) results.push(...page);
  return results;
}

/**
 * For a run whose cancel was requested: deletes its queued jobs, stores their
 * cells as skipped (cancelled) a page at a time, and finishes the run if nothing
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
  computeAgreement?: ComputeAgreement;
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
    // A cell a worker stored meanwhile (a chunk retried after its worker died) keeps its result:
    // saveNewResults skips the keys already stored.
    const cells = new Set(jobs.flatMap((j) => chunkOf(j.data).cellIds));
    for await (const page of cancelledPages({ run, suite: loaded.value, cellIds: cells }))
      skipped += await store.saveNewResults(
        run.id,
        page.map((r) => redactDeep(r)),
      );
  }
  await finishIfAllStored({
    prisma: input.prisma,
    run,
    suite: loaded.value,
    priceOf: input.priceOf,
    ...(input.computeAgreement ? { computeAgreement: input.computeAgreement } : {}),
  });
  return skipped;
}
