import type { PgBoss } from "pg-boss";
import { loadSuite } from "../config/load-suite";
import type { SuiteConfig } from "../config/types";
import type { JudgePort } from "../engine/ports/judge-port";
import type { EvalResult } from "../engine/results/report";
import { CallScheduler } from "../engine/grade/call-scheduler";
import { runSuite } from "../engine/run-suite";
import type { PriceOf } from "../engine/plan/explain-plan";
import { redactDeep } from "../engine/results/redact-secrets";
import { createRedactor, type Redactor } from "../engine/results/redact-values";
import type { Database } from "./open-database";
import { GRADE_QUEUE, RETRY_LIMIT, type CellJob } from "./grade-queue";
import { createRunStore, type StoredRun } from "./run-store";
import { finishIfAllStored, skipQueuedCells } from "./run-cancel";
import { claimOwner, createCachedJudge } from "./cached-judge";
import type { LivePort } from "../engine/ports/live-port";
import { countOutstanding, type BatchLedger } from "../judge/batch-rounds";
import { createBatchLedger } from "./batch-ledger";
import { storeGivenUpCell } from "./given-up-cell";
import { oneLineCause, saveResultOrCause } from "./unstored-result";
import { regradeReplay, storedResponseOf } from "./regrade-replay";

/** A live port that owns servers: closed when its run is finished here. */
type LiveRunner = LivePort & { close(): Promise<void> };

// Distributed grading: a queued run is one pg-boss job per cell. Any number
// of workers, on any number of machines, take jobs from the same database.
// A job is idempotent: its result is an upsert on (run, cell), and its judge
// calls go through the claimed cache, so a job retried after its worker died
// re-pays only the calls that worker had in flight.
// A cancel request reaches the cells in hand within CANCEL_POLL_MS: the run's
// signal aborts and the scheduler refuses its calls not yet started (they are
// reported skipped (cancelled)); the run's queued cells are stored skipped
// (cancelled) in one write and their jobs deleted (run-cancel.ts). A worker's shutdown does the same for all its
// cells, but hands each cut-short cell back to the queue instead of storing it.

/** How often a worker asks whether the runs it is grading were cancelled. */
const CANCEL_POLL_MS = 500;

/**
 * What a batched run's judge needs (lib/judge/batch-rounds.ts): the run's batch ledger, and the
 * judge calls in progress (a round closes when all of them wait in it).
 */
export interface RunBatchContext {
  ledger: BatchLedger;
  outstanding: () => number;
}

/**
 * A run's judge, prices and provider resolution (issue 11): the server's providers for a dashboard
 * run, the suite's own for one queued by the CLI.
 */
export interface RunProviders {
  /** The uncached judge, sending each request to its model's provider. */
  judge: JudgePort;
  priceOf: PriceOf;
  /** Which provider serves a model, and why it cannot now (its key is not set): such a model's cells defer. */
  resolveModel: (model: string) => { provider: string; unavailable?: string };
  /** The secret values this run's judge holds and sends: removed by value from its results before they are stored. */
  secrets?: readonly string[];
}

export interface WorkerOptions {
  db: Database;
  boss: PgBoss;
  /** The uncached judge; the worker puts the shared cache in front of it per run. Unused with `providersFor`. */
  judge?: JudgePort;
  priceOf?: PriceOf;
  /**
   * Each run's judge and providers; without it every run uses `judge`
   * (Anthropic only). For a run queued with `--batch` (or the dashboard's "Run
   * as batch") it gets the run's batch ledger, so that its judge sends through
   * Message Batches and a job retried here or elsewhere waits for its batch
   * instead of paying again.
   */
  providersFor?: (run: StoredRun, suite: SuiteConfig, batch?: RunBatchContext) => RunProviders;
  /** Judge calls in flight at once across all of this worker's jobs. */
  concurrency: number;
  judgeModel: string;
  judgeUnavailable?: string;
  toolVersion: string;
  onResult?: (runId: string, result: EvalResult) => void;
  log?: (line: string) => void;
  /**
   * The live port for a run's agent evals (it decides which servers that run
   * may start); closed when the run is finished here. Without it they defer.
   */
  liveFor?: (run: StoredRun) => LiveRunner | undefined;
}

interface RunContext {
  run: StoredRun;
  suite: SuiteConfig;
  judge: JudgePort;
  priceOf: PriceOf;
  resolveModel?: RunProviders["resolveModel"];
  /** The run's results without its secrets (by value) and credential shapes. */
  redact: Redactor;
  /** Its judge calls go through Message Batches: the engine counts the budget at batch prices (RunOptions.batch). */
  batch: boolean;
  live?: LiveRunner;
  /** A regrade (Re-grade with…): its candidates are the source run's, replayed through `live`. */
  replayed: boolean;
  /** Aborted once the run's cancel request is seen. */
  cancel: AbortController;
  /**
   * Warnings already logged for this run (each job is a runSuite of its own; the run says each
   * once, as the CLI does).
   */
  warned: Set<string>;
}

/** Starts taking jobs; resolves to a stop function (no new call starts; the calls in flight finish first). */
export async function startWorker(options: WorkerOptions): Promise<{ stop(): Promise<void> }> {
  // A programmer error, said before any job is taken.
  if (!options.judge && !options.providersFor)
    throw new Error("startWorker needs judge or providersFor");
  const store = createRunStore(options.db.prisma);
  const scheduler = new CallScheduler({ concurrency: options.concurrency });
  const contexts = new Map<string, Promise<RunContext | undefined>>();
  const shutdown = new AbortController();
  // Cells being graded here, per run: the runs whose cancel requests are watched.
  const inHand = new Map<string, number>();
  let checking = false;
  const cancelWatch = setInterval(() => {
    if (checking || inHand.size === 0) return;
    checking = true;
    store
      .cancelRequestedAmong([...inHand.keys()])
      .then(async (ids) => {
        for (const id of ids) {
          const context = await contexts.get(id);
          if (!context || context.cancel.signal.aborted) continue;
          context.cancel.abort();
          await skipQueued(id, context.priceOf);
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
        const loaded = loadSuite({ text: run.yaml, file: run.config.file });
        if (!loaded.ok) return undefined;
        const regrade = regradeReplay({ prisma: options.db.prisma, run, suite: loaded.value });
        const counted = countOutstanding();
        const batch =
          run.config.batch && options.providersFor
            ? {
                ledger: createBatchLedger({ prisma: options.db.prisma, runId }),
                outstanding: counted.outstanding,
              }
            : undefined;
        const suite = regrade?.suite ?? loaded.value;
        const providers = options.providersFor?.(run, suite, batch);
        const inner = (providers?.judge ?? options.judge)!;
        const cached = createCachedJudge({
          prisma: options.db.prisma,
          inner,
          runId,
          owner: claimOwner(),
          reuse: !run.config.noCache,
          leaseMs: 10 * 60_000,
        });
        const judge = batch ? counted.around(cached) : cached;
        const priceOf = providers?.priceOf ?? options.priceOf ?? (() => undefined);
        return {
          run,
          suite,
          judge,
          priceOf,
          batch: batch !== undefined,
          redact: createRedactor(providers?.secrets),
          ...(providers ? { resolveModel: providers.resolveModel } : {}),
          live: regrade?.live ?? options.liveFor?.(run),
          replayed: regrade !== undefined,
          cancel: new AbortController(),
          warned: new Set<string>(),
        };
      })();
      contexts.set(runId, context);
    }
    return context;
  };

  const finishIfDone = async (context: RunContext) => {
    if (
      !(await finishIfAllStored({
        store,
        run: context.run,
        suite: context.suite,
        priceOf: context.priceOf,
      }))
    )
      return;
    contexts.delete(context.run.id);
    await context.live?.close();
  };

  // A cancel seen here: the run's cells not yet started are skipped in one write, their jobs dropped.
  const skipQueued = (runId: string, priceOf: PriceOf) =>
    skipQueuedCells({
      prisma: options.db.prisma,
      boss: options.boss,
      queue: GRADE_QUEUE,
      runId,
      priceOf,
    }).catch((error: unknown) =>
      options.log?.(`run ${runId}: could not skip its queued cells: ${(error as Error).message}`),
    );

  const handle = async (job: { id: string; data: CellJob }) => {
    const context = await contextOf(job.data.runId);
    if (!context) {
      options.log?.(`job for unknown run ${job.data.runId}: dropped`);
      return;
    }
    const runId = context.run.id;
    if (context.run.status === "queued") await store.setStatus(runId, "running");
    if (!context.cancel.signal.aborted && (await store.isCancelRequested(runId))) {
      context.cancel.abort();
      await skipQueued(runId, context.priceOf);
    }
    // A regrade grades the fixed response its source graded, as the CLI's regrade does.
    const regradeOf = context.replayed ? context.run.regradeOf : undefined;
    const responses = regradeOf
      ? await storedResponseOf({
          prisma: options.db.prisma,
          sourceRunId: regradeOf,
          cellId: job.data.cellId,
        })
      : undefined;
    inHand.set(runId, (inHand.get(runId) ?? 0) + 1);
    let report: Awaited<ReturnType<typeof runSuite>>;
    try {
      report = await runSuite(
        {
          suite: context.suite,
          defaultModel: context.run.config.judgeModel,
          ...(context.resolveModel
            ? { resolveModel: context.resolveModel }
            : { judgeUnavailable: options.judgeUnavailable }),
          concurrency: options.concurrency,
          toolVersion: options.toolVersion,
          onlyResultIds: new Set([job.data.cellId]),
          scheduler,
          cancel: context.cancel.signal,
          shutdown: shutdown.signal,
          ...(context.batch ? { batch: true } : {}),
          ...(responses ? { agentsReplayed: true, storedResponses: responses } : {}),
          ...(context.run.config.plannedJudgeCalls !== undefined
            ? { runJudgeCalls: context.run.config.plannedJudgeCalls }
            : {}),
          ...(context.run.config.filter !== undefined
            ? { filter: new RegExp(context.run.config.filter, "i") }
            : {}),
        },
        {
          judge: context.judge,
          now: Date.now,
          priceOf: context.priceOf,
          redact: context.redact,
          ...(context.live ? { live: context.live } : {}),
          // The engine's warnings (a prompt-cache prefix neither written nor read), once per run.
          onEvent: (event) => {
            if (event.type !== "warning" || context.warned.has(event.message)) return;
            context.warned.add(event.message);
            options.log?.(`run ${runId}: warning: ${event.message}`);
          },
        },
      );
    } finally {
      const left = (inHand.get(runId) ?? 1) - 1;
      if (left > 0) inHand.set(runId, left);
      else inHand.delete(runId);
    }
    // Cut short by this worker's shutdown: back to the queue for another
    // worker, which finds the calls made here in the judge cache.
    if (report.results.some((r) => r.status === "skipped" && r.skipKind === "interrupted")) {
      await options.boss.fail(GRADE_QUEUE, job.id, {
        message: "the worker stopped before this cell was graded; it goes back to the queue",
      });
      options.log?.(`run ${runId}: ${job.data.cellId} returned to the queue (worker stopping)`);
      return;
    }
    for (const result of report.results) {
      // A result the database refuses is stored as a judge error that says why, with its cost: the run still finishes.
      const { stored, refused } = await saveResultOrCause({
        store,
        runId,
        result: redactDeep(result),
      });
      if (refused) options.log?.(`run ${runId}: ${result.id}: ${refused}`);
      options.onResult?.(runId, stored);
    }
    await finishIfDone(context);
  };

  // One job's failure is that job's: it goes back to the queue (pg-boss's
  // retries, a second apart) with its cause, and the other jobs of the batch,
  // other runs' among them, are stored and completed as usual.
  const handleOne = (job: { id: string; data: CellJob; retryCount: number }) =>
    handle(job).catch(async (error: unknown) => {
      const cause = oneLineCause(error);
      options.log?.(`run ${job.data.runId}: ${job.data.cellId} failed: ${cause}`);
      // Its last attempt: the cell is stored as a judge error that says why, so its run can finish.
      if (job.retryCount >= RETRY_LIMIT)
        await storeGivenUpCell({
          prisma: options.db.prisma,
          runId: job.data.runId,
          cellId: job.data.cellId,
          attempts: job.retryCount + 1,
          cause,
          priceOf: (await contexts.get(job.data.runId))?.priceOf ?? (() => undefined),
        }).catch((stored: unknown) =>
          options.log?.(`could not store ${job.data.cellId} as failed: ${oneLineCause(stored)}`),
        );
      await options.boss
        .fail(GRADE_QUEUE, job.id, { message: cause })
        .catch((failed: unknown) =>
          options.log?.(`could not hand job ${job.id} back: ${(failed as Error).message}`),
        );
    });

  await options.boss.work<CellJob>(
    GRADE_QUEUE,
    { batchSize: options.concurrency, pollingIntervalSeconds: 0.5 },
    async (jobs) => {
      await Promise.all(jobs.map(handleOne));
    },
  );
  return {
    /**
     * Stops scheduling calls at once; the calls in flight finish, and the cells they belong to go
     * back to the queue.
     */
    async stop() {
      shutdown.abort();
      await options.boss.offWork(GRADE_QUEUE, { wait: true });
      clearInterval(cancelWatch);
    },
  };
}
