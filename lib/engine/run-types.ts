import type { JudgePort } from "./ports/judge-port";
import type { EvalResult } from "./results/report";
import type { PlanOptions } from "./plan/plan-suite";
import type { CallScheduler } from "./grade/call-scheduler";
import type { PriceOf } from "./plan/explain-plan";
import type { LivePort } from "./ports/live-port";
import type { Redactor } from "./results/redact-values";

// What a run takes and what it tells as it goes: shared by stream-suite.ts (the
// run itself) and run-suite.ts (the run with its results collected).

export interface EngineDeps {
  judge: JudgePort;
  now: () => number;
  priceOf: PriceOf;
  onEvent?: (event: RunEvent) => void;
  /** Produces the candidates of evals without a response (live agent runs). Without it they defer. */
  live?: LivePort;
  /**
   * Applied to every result before anyone sees it (events, the report): the
   * process's own secrets by value (an endpoint may echo its key in an error)
   * and credential shapes. Without it, shapes only are left to the reporters.
   */
  redact?: Redactor;
}

export type RunEvent =
  | { type: "start"; evals: number; judgeCalls: number }
  | { type: "call"; done: number; total: number; costUsd: number }
  | { type: "result"; result: EvalResult; done: number; total: number }
  /** Said once per run for each distinct message (e.g. a prompt-cache prefix that was never written). */
  | { type: "warning"; message: string };

export interface RunOptions extends PlanOptions {
  concurrency: number;
  maxCostUsd?: number;
  toolVersion: string;
  signal?: AbortSignal;
  /** Result ids already graded (a resumed run): their cells are not graded again. */
  skipResultIds?: ReadonlySet<string>;
  /** Grade only these cells (a worker's job). */
  onlyResultIds?: ReadonlySet<string>;
  /**
   * A cancel request (the dashboard, `rubric-studio cancel`): no new judge or
   * agent call of this run starts, the ones in flight finish, and what was not
   * graded is skipped (cancelled). `signal` (Ctrl-C) also aborts those in
   * flight: skipped (interrupted).
   */
  cancel?: AbortSignal;
  /** A worker's shutdown: like `cancel`, but what was not graded is skipped (interrupted). */
  shutdown?: AbortSignal;
  /**
   * The whole run's planned judge calls, when this call grades only part of it
   * (a worker's job): the prompt cache's TTL is chosen for the run, as one
   * process running all of it would, not for the one cell.
   */
  runJudgeCalls?: number;
  /** A scheduler shared with other runs in this process (a worker's jobs), instead of one of this run's own. */
  scheduler?: CallScheduler;
  /** This run's calls' priority in a shared scheduler (lower first): a worker's chunks in the order it took them. */
  priority?: number;
  /** The judge calls go through Message Batches: the budget counts them at batch prices (agent calls stay at standard ones; `deps.priceOf` is the standard table). */
  batch?: boolean;
}
