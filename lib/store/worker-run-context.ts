import { loadSuite } from "../config/load-suite";
import type { LoadResult, SuiteConfig } from "../config/types";
import type { JudgePort } from "../engine/ports/judge-port";
import type { LivePort } from "../engine/ports/live-port";
import type { PriceOf } from "../engine/plan/explain-plan";
import type { PlanOptions } from "../engine/plan/plan-cell";
import { planCells } from "../engine/plan/plan-suite";
import { createRedactor, type Redactor } from "../engine/results/redact-values";
import { countOutstanding, type BatchLedger } from "../judge/batch-rounds";
import { createBatchLedger } from "./batch-ledger";
import { claimOwner, createCachedJudge } from "./cached-judge";
import type { Database } from "./open-database";
import { createPlanCursor, type PlanCursor } from "./plan-cursor";
import { regradeReplay } from "./regrade-replay";
import type { StoredRun } from "./run-store";

// What a worker holds per run it grades (run-worker.ts): the run's suite, read
// as the process that queued it reads it (`suiteOf`: a CLI run's dataset files
// streamed under a file's bounds), its judge behind the shared cache (and its
// Message Batches ledger when batched), prices, redaction, live port, cancel
// signal, and its place in the run's plan (plan-cursor.ts).

/** A live port that owns servers: closed when its run is finished here. */
export type LiveRunner = LivePort & { close(): Promise<void> };

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

export interface RunContextOptions {
  db: Database;
  judge?: JudgePort;
  priceOf?: PriceOf;
  providersFor?: (run: StoredRun, suite: SuiteConfig, batch?: RunBatchContext) => RunProviders;
  judgeUnavailable?: string;
  liveFor?: (run: StoredRun) => LiveRunner | undefined;
  /**
   * A run's suite as its worker plans it. Default: its stored text under the browser's bounds, no
   * file read (a dashboard run's). The CLI's workers read a CLI run's dataset files as the CLI
   * does (streamed, under a file's bounds: lib/cli/run-suite-loader.ts).
   */
  suiteOf?: (run: StoredRun) => Promise<LoadResult>;
}

export interface RunContext {
  run: StoredRun;
  suite: SuiteConfig;
  judge: JudgePort;
  priceOf: PriceOf;
  resolveModel?: RunProviders["resolveModel"];
  /** How the run's cells are planned, as the engine plans them for this worker. */
  plan: PlanOptions;
  /** This worker's place in the plan (unused by a regrade, whose chunks plan their stored responses). */
  cursor: PlanCursor;
  /** The run's results without its secrets (by value) and credential shapes. */
  redact: Redactor;
  /** Its judge calls go through Message Batches: the engine counts the budget at batch prices (RunOptions.batch). */
  batch: boolean;
  live?: LiveRunner;
  /** A regrade (Re-grade with…): its candidates are the source run's, replayed through `live`. */
  replayed: boolean;
  /** Aborted once the run's cancel request is seen. */
  cancel: AbortController;
  /** Warnings already logged for this run (each chunk is a stream of its own; the run says each once). */
  warned: Set<string>;
}

/** The run's context, or why there is none (the run is gone, or its suite no longer loads). */
export async function createRunContext(
  options: RunContextOptions,
  run: StoredRun,
): Promise<RunContext | { missing: string }> {
  const loaded = await (options.suiteOf?.(run) ??
    Promise.resolve(loadSuite({ text: run.yaml, file: run.config.file })));
  if (!loaded.ok) {
    const first = loaded.issues.find((i) => i.severity === "error") ?? loaded.issues[0];
    return { missing: `its suite does not load${first ? `: ${first.message}` : ""}` };
  }
  const prisma = options.db.prisma;
  const regrade = regradeReplay({ prisma, run, suite: loaded.value });
  const counted = countOutstanding();
  const batch =
    run.config.batch && options.providersFor
      ? { ledger: createBatchLedger({ prisma, runId: run.id }), outstanding: counted.outstanding }
      : undefined;
  const suite = regrade?.suite ?? loaded.value;
  const providers = options.providersFor?.(run, suite, batch);
  const inner = (providers?.judge ?? options.judge)!;
  const cached = createCachedJudge({
    prisma,
    inner,
    runId: run.id,
    owner: claimOwner(),
    reuse: !run.config.noCache,
    leaseMs: 10 * 60_000,
  });
  const live = regrade?.live ?? options.liveFor?.(run);
  // As the engine plans when it is handed no cells (stream-suite.ts).
  const plan: PlanOptions = {
    suite,
    defaultModel: run.config.judgeModel,
    ...(providers
      ? { resolveModel: providers.resolveModel }
      : { judgeUnavailable: options.judgeUnavailable }),
    ...(live ? {} : { liveUnavailable: "live agent runs are not enabled here" }),
    ...(run.config.filter !== undefined ? { filter: new RegExp(run.config.filter, "i") } : {}),
  };
  return {
    run,
    suite,
    judge: batch ? counted.around(cached) : cached,
    priceOf: providers?.priceOf ?? options.priceOf ?? (() => undefined),
    plan,
    cursor: createPlanCursor(() => planCells(plan)),
    batch: batch !== undefined,
    redact: createRedactor(providers?.secrets),
    ...(providers ? { resolveModel: providers.resolveModel } : {}),
    ...(live ? { live } : {}),
    replayed: regrade !== undefined,
    cancel: new AbortController(),
    warned: new Set<string>(),
  };
}
