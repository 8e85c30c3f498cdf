import type { PgBoss } from "pg-boss";
import type { SuiteConfig } from "../config/types";
import type { JudgePort } from "../engine/ports/judge-port";
import type { EvalResult } from "../engine/results/report";
import { CallScheduler } from "../engine/grade/call-scheduler";
import type { PriceOf } from "../engine/plan/explain-plan";
import type { Database } from "./open-database";
import { chunkOf, GRADE_QUEUE, RETRY_LIMIT, type ChunkJob } from "./grade-queue";
import { createRunStore, type StoredRun } from "./run-store";
import { finishIfAllStored, skipQueuedCells } from "./run-cancel";
import { storeGivenUpCells } from "./given-up-cell";
import { oneLineCause } from "./unstored-result";
import { gradeChunk } from "./grade-chunk";
import type { ComputeAgreement } from "./run-agreement";
import {
  createRunContext,
  type LiveRunner,
  type RunBatchContext,
  type RunContext,
  type RunContextOptions,
  type RunProviders,
} from "./worker-run-context";

export type { RunBatchContext, RunProviders } from "./worker-run-context";

// Distributed grading: a queued run is pg-boss jobs of a chunk of cells each
// (grade-queue.ts). Any number of workers, on any number of machines, take
// jobs from the same database. A job is idempotent: the cells of its chunk
// that have a stored result are skipped, each result is an upsert on (run,
// cell) written as it finishes, and its judge calls go through the claimed
// cache, so a chunk retried after its worker died re-pays only the calls that
// worker had in flight. A cancel request reaches the cells in hand within
// CANCEL_POLL_MS: the run's signal aborts and the scheduler refuses its calls
// not yet started (they are reported skipped (cancelled)); the run's queued
// cells are stored skipped (cancelled) and their jobs deleted (run-cancel.ts).
// A worker's shutdown does the same for all its cells, but hands each chunk cut
// short back to the queue instead of storing its cells cut short.

/** How often a worker asks whether the runs it is grading were cancelled. */
const CANCEL_POLL_MS = 500;
/**
 * A run none of whose chunks this worker has graded for this long is let go (its plan walk and
 * dataset file closed, its live servers stopped): another worker may have finished it. A later
 * chunk of it makes its context again.
 */
const IDLE_RUN_MS = 60_000;

export interface WorkerOptions extends RunContextOptions {
  db: Database;
  boss: PgBoss;
  /** Judge calls in flight at once across all of this worker's jobs. */
  concurrency: number;
  judgeModel: string;
  toolVersion: string;
  onResult?: (runId: string, result: EvalResult) => void;
  log?: (line: string) => void;
  /** Chunks graded at once (default 2: one's last calls finish while the next one's start). */
  chunksAtOnce?: number;
  /**
   * How a finished run's judge agreement is computed (default: on this thread). The dashboard's
   * worker and `rubric-studio worker` pass a worker thread: a big multi-judge run's bootstrap is
   * a minute of CPU, which would stall this worker's heartbeats (and the embedded database the
   * dashboard's process serves).
   */
  computeAgreement?: ComputeAgreement;
}

/** Starts taking jobs; resolves to a stop function (no new call starts; the calls in flight finish first). */
export async function startWorker(options: WorkerOptions): Promise<{ stop(): Promise<void> }> {
  // A programmer error, said before any job is taken.
  if (!options.judge && !options.providersFor)
    throw new Error("startWorker needs judge or providersFor");
  const store = createRunStore(options.db.prisma);
  const compute = options.computeAgreement;
  // Without an answer the run keeps no figures: its agreement page computes them when opened.
  const agreement: { computeAgreement?: ComputeAgreement } = compute
    ? {
        computeAgreement: async (sample) => {
          const answer = await compute(sample);
          if (!answer.ok)
            options.log?.(`a finished run's judge agreement was not kept: ${answer.message}`);
          return answer;
        },
      }
    : {};
  const scheduler = new CallScheduler({ concurrency: options.concurrency });
  const contexts = new Map<string, Promise<RunContext | undefined>>();
  const shutdown = new AbortController();
  // Cells being graded here, per run: the runs whose cancel requests are watched.
  const inHand = new Map<string, number>();
  let checking = false;
  // When each run last had a chunk start or end here.
  const lastUsed = new Map<string, number>();
  const letGoIdle = () => {
    for (const [runId, at] of lastUsed) {
      if (inHand.has(runId) || Date.now() - at < IDLE_RUN_MS) continue;
      lastUsed.delete(runId);
      const context = contexts.get(runId);
      contexts.delete(runId);
      void context
        ?.then(async (held) => {
          await held?.cursor.close();
          await held?.live?.close();
        })
        .catch(() => undefined);
    }
  };
  const cancelWatch = setInterval(() => {
    letGoIdle();
    if (checking || inHand.size === 0) return;
    checking = true;
    store
      .cancelRequestedAmong([...inHand.keys()])
      .then(async (ids) => {
        for (const id of ids) {
          const context = await contexts.get(id);
          if (!context || context.cancel.signal.aborted) continue;
          context.cancel.abort();
          await skipQueued(context);
        }
      })
      .catch((error: unknown) =>
        options.log?.(`could not check for cancel requests: ${(error as Error).message}`),
      )
      .finally(() => (checking = false));
  }, CANCEL_POLL_MS);
  cancelWatch.unref();

  const contextOf = (runId: string) => {
    let context = contexts.get(runId);
    if (!context) {
      context = (async () => {
        const run = await store.getRun(runId);
        if (!run) return undefined;
        const made = await createRunContext(options, run);
        if ("missing" in made) {
          options.log?.(`run ${runId}: ${made.missing}`);
          return undefined;
        }
        return made;
      })();
      contexts.set(runId, context);
      // A failure (the database went away) is not kept: the next chunk tries again.
      context.catch(() => contexts.delete(runId));
    }
    return context;
  };

  const finishIfDone = async (context: RunContext) => {
    if (
      !(await finishIfAllStored({
        prisma: options.db.prisma,
        run: context.run,
        suite: context.suite,
        priceOf: context.priceOf,
        ...agreement,
      }))
    )
      return;
    contexts.delete(context.run.id);
    lastUsed.delete(context.run.id);
    await context.cursor.close();
    await context.live?.close();
  };

  // The chunks in the order this worker took them: the scheduler serves the first taken first.
  let chunksTaken = 0;

  // A cancel seen here: the run's cells not yet started are skipped, their jobs dropped.
  const skipQueued = (context: RunContext) =>
    skipQueuedCells({
      prisma: options.db.prisma,
      boss: options.boss,
      queue: GRADE_QUEUE,
      runId: context.run.id,
      priceOf: context.priceOf,
      suite: context.suite,
      ...agreement,
    }).catch((error: unknown) =>
      options.log?.(
        `run ${context.run.id}: could not skip its queued cells: ${(error as Error).message}`,
      ),
    );

  const handle = async (job: { id: string; data: ChunkJob }) => {
    const chunk = job.data;
    const priority = chunksTaken++;
    lastUsed.set(chunk.runId, Date.now());
    const context = await contextOf(chunk.runId);
    if (!context) {
      options.log?.(`job for unknown run ${chunk.runId}: dropped`);
      return;
    }
    const runId = context.run.id;
    if (context.run.status === "queued") await store.setStatus(runId, "running");
    if (!context.cancel.signal.aborted && (await store.isCancelRequested(runId))) {
      context.cancel.abort();
      await skipQueued(context);
    }
    inHand.set(runId, (inHand.get(runId) ?? 0) + 1);
    lastUsed.set(runId, Date.now());
    let graded: Awaited<ReturnType<typeof gradeChunk>>;
    try {
      graded = await gradeChunk({
        context,
        chunk,
        prisma: options.db.prisma,
        store,
        scheduler,
        priority,
        shutdown: shutdown.signal,
        concurrency: options.concurrency,
        toolVersion: options.toolVersion,
        ...(options.onResult ? { onResult: options.onResult } : {}),
        log: (line) => options.log?.(`run ${runId}: ${line}`),
      });
    } finally {
      lastUsed.set(runId, Date.now());
      const left = (inHand.get(runId) ?? 1) - 1;
      if (left > 0) inHand.set(runId, left);
      else inHand.delete(runId);
    }
    // Cut short by this worker's shutdown: back to the queue for another worker, which skips the
    // cells stored here and finds the calls made here in the judge cache.
    if (graded.interrupted > 0) {
      await options.boss.fail(GRADE_QUEUE, job.id, {
        message: "the worker stopped before this chunk was graded; it goes back to the queue",
      });
      options.log?.(
        `run ${runId}: ${graded.interrupted} of ${chunk.cellIds.length} cells of a chunk returned to the queue (worker stopping)`,
      );
      return;
    }
    await finishIfDone(context);
  };

  // One job's failure is that job's: it goes back to the queue (pg-boss's
  // retries, a second apart) with its cause; other jobs, other runs' among
  // them, are stored and completed as usual.
  const handleOne = (job: { id: string; data: ChunkJob; retryCount: number }) =>
    handle(job).catch(async (error: unknown) => {
      const cause = oneLineCause(error);
      const { runId, cellIds } = job.data;
      options.log?.(`run ${runId}: a chunk of ${cellIds.length} cells failed: ${cause}`);
      // Its last attempt: the chunk's cells without a result are stored as judge errors that say why, so its run can finish.
      if (job.retryCount >= RETRY_LIMIT) {
        const context = await contexts.get(runId)?.catch(() => undefined);
        await storeGivenUpCells({
          prisma: options.db.prisma,
          runId,
          cellIds,
          attempts: job.retryCount + 1,
          cause,
          priceOf: context?.priceOf ?? (() => undefined),
          ...(context ? { suite: context.suite } : {}),
          ...agreement,
        }).catch((stored: unknown) =>
          options.log?.(`could not store the chunk's cells as failed: ${oneLineCause(stored)}`),
        );
      }
      await options.boss
        .fail(GRADE_QUEUE, job.id, { message: cause })
        .catch((failed: unknown) =>
          options.log?.(`could not hand job ${job.id} back: ${(failed as Error).message}`),
        );
    });

  await options.boss.work<ChunkJob>(
    GRADE_QUEUE,
    { batchSize: 1, localConcurrency: options.chunksAtOnce ?? 2, pollingIntervalSeconds: 0.5 },
    async (jobs) => {
      await Promise.all(jobs.map((job) => handleOne({ ...job, data: chunkOf(job.data) })));
    },
  );
  return {
    /**
     * Stops scheduling calls at once; the calls in flight finish, and the chunks they belong to go
     * back to the queue.
     */
    async stop() {
      shutdown.abort();
      await options.boss.offWork(GRADE_QUEUE, { wait: true });
      clearInterval(cancelWatch);
    },
  };
}
