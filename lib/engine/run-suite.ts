import type { JudgeOutcome, JudgePort, JudgeRequest } from "./ports/judge-port";
import { ZERO_USAGE, addTokenUsage } from "./ports/judge-port";
import type { VerdictKind, VerdictOf } from "./ports/verdict";
import type { EvalResult, Report } from "./results/report";
import { selfGradingWarnings } from "./results/self-grading";
import { planSuite, type PlanOptions } from "./plan/plan-suite";
import { CallScheduler, type ScheduleStop } from "./grade/call-scheduler";
import { EXPECTED_OUTPUT_TOKENS, estimateRequest, type PriceOf } from "./plan/explain-plan";
import { gradeCell } from "./cell/grade-cell";
import type { CallJudge } from "./grade/call-judge";
import { gradeLiveCell, type LiveRuns } from "./cell/grade-live-cell";
import { gradeCellComparison } from "./cell/grade-cell-comparison";
import type { LivePort, LiveRequest } from "./ports/live-port";
import { batchPriceOf, costOf } from "./cost/cost";
import { judgeAgreement } from "./trust/agreement/judge-agreement";
import { skippedByOf } from "./results/skip-kind";
import { cacheTtlFor } from "./grade/cache-ttl";
import { savingsOfCalls } from "./cost/savings";
import type { Redactor } from "./results/redact-values";

// Runs a suite: plans it, schedules every judge call under the concurrency
// limit and the budget, grades each cell and assembles the canonical report.
// All side effects arrive through `deps` (DESIGN.md, house rule 3).

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
  /** The judge calls go through Message Batches: the budget counts them at batch prices (agent calls stay at standard ones; `deps.priceOf` is the standard table). */
  batch?: boolean;
}

export async function runSuite(options: RunOptions, deps: EngineDeps): Promise<Report> {
  const startedAt = deps.now();
  const liveUnavailable =
    options.liveUnavailable ?? (deps.live ? undefined : "live agent runs are not enabled here");
  const cells = planSuite({ ...options, liveUnavailable }).filter(
    (cell) =>
      !options.skipResultIds?.has(cell.id) &&
      (!options.onlyResultIds || options.onlyResultIds.has(cell.id)),
  );
  const scheduler =
    options.scheduler ??
    new CallScheduler({ concurrency: options.concurrency, maxCostUsd: options.maxCostUsd });
  // Stops are per call, not on the scheduler: a worker's scheduler is shared with other runs.
  const stops: ScheduleStop[] = [
    ...(options.signal ? [{ signal: options.signal, kind: "interrupted" as const }] : []),
    ...(options.shutdown ? [{ signal: options.shutdown, kind: "interrupted" as const }] : []),
    ...(options.cancel ? [{ signal: options.cancel, kind: "cancelled" as const }] : []),
  ];
  // A tree may stop before its longest path; the planned total is an upper bound.
  let plannedCalls = cells.reduce((n, c) => n + c.judgeCalls, 0);
  let callsDone = 0;
  let costUsd = 0;
  deps.onEvent?.({ type: "start", evals: cells.length, judgeCalls: plannedCalls });
  const cacheTtl = cacheTtlFor({
    calls: Math.max(plannedCalls, options.runJudgeCalls ?? 0),
    concurrency: options.concurrency,
  });
  const warned = new Set<string>();

  const judgePriceOf = options.batch ? batchPriceOf(deps.priceOf) : deps.priceOf;
  const call: CallJudge = async <K extends VerdictKind>(request: JudgeRequest<K>) => {
    const estimate = estimateRequest(request, judgePriceOf).costUsd ?? 0;
    const scheduled = await scheduler.submit(
      estimate,
      async (slot) => {
        // The adapter validated the verdict with replySchemaFor(request), so it is of kind K.
        const outcome = (await deps.judge.grade(request, {
          slot,
          signal: options.signal,
          cacheTtl,
        })) as JudgeOutcome<VerdictOf<K>>;
        return { value: outcome, costUsd: outcome.call.costUsd };
      },
      stops,
      deps.judge.cachePrefixes?.(request) ?? [],
    );
    if (scheduled.skipped) return { kind: "skipped", reason: scheduled.reason };
    // A call that Ctrl-C cut short was never answered (a batched one waits for its batch): the run was interrupted, not the judge (and `resume` grades it).
    if (!scheduled.value.ok && options.signal?.aborted)
      return { kind: "skipped", reason: "interrupted" };
    const { notice } = scheduled.value;
    if (notice !== undefined && !warned.has(notice)) {
      warned.add(notice);
      deps.onEvent?.({ type: "warning", message: notice });
    }
    callsDone++;
    costUsd += scheduled.value.call.costUsd ?? 0;
    deps.onEvent?.({
      type: "call",
      done: callsDone,
      total: Math.max(plannedCalls, callsDone),
      costUsd,
    });
    return { kind: "done", outcome: scheduled.value };
  };

  // Agent model calls share the judge calls' concurrency limit and budget.
  const schedule: LiveRequest["schedule"] = async (estimate, work) => {
    const price = deps.priceOf(estimate.model);
    const usd = (usage: Parameters<typeof costOf>[1]) => (price ? costOf(price, usage) : null);
    const estimateUsd =
      usd({
        input: estimate.inputTokens,
        output: Math.min(EXPECTED_OUTPUT_TOKENS, estimate.maxTokens),
        cacheRead: 0,
        cacheWrite: 0,
      }) ?? 0;
    const scheduled = await scheduler.submit(
      estimateUsd,
      async (slot) => {
        const done = await work(slot);
        const cost = usd(done.usage);
        return { value: { value: done.value, cost }, costUsd: cost };
      },
      stops,
    );
    if (scheduled.skipped) return scheduled;
    costUsd += scheduled.value.cost ?? 0;
    return { skipped: false, value: scheduled.value.value };
  };
  const liveRuns: LiveRuns = new Map();

  let evalsDone = 0;
  const results = await Promise.all(
    await startInTurns(cells, async (cell) => {
      const { live, compared } = cell;
      const graded = compared
        ? await gradeCellComparison({
            cell: { ...cell, compared },
            call,
            now: deps.now,
            priceOf: deps.priceOf,
            runs: liveRuns,
            schedule,
            ...(deps.live ? { live: deps.live } : {}),
            ...(options.signal ? { signal: options.signal } : {}),
          })
        : live && cell.deferReason === undefined && deps.live
          ? await gradeLiveCell({
              cell: { ...cell, live },
              live: deps.live,
              schedule,
              call,
              now: deps.now,
              priceOf: deps.priceOf,
              runs: liveRuns,
              ...(options.signal ? { signal: options.signal } : {}),
            })
          : await gradeCell({ cell, call, now: deps.now });
      const result = deps.redact ? deps.redact.deep(graded) : graded;
      evalsDone++;
      // Calls a tree did not need, or that the budget refused, leave the total.
      plannedCalls -= cell.judgeCalls - result.calls.length;
      deps.onEvent?.({ type: "result", result, done: evalsDone, total: cells.length });
      return result;
    }),
  );

  return buildReport({
    results,
    suite: options.suite,
    toolVersion: options.toolVersion,
    startedAt,
    finishedAt: deps.now(),
    maxCostUsd: options.maxCostUsd,
    priceOf: deps.priceOf,
  });
}

/** Cells started between two turns of the event loop. */
const CELLS_PER_TURN = 1;

/**
 * Starts `work` on each item in order, giving the event loop a turn every few
 * items: the first judge requests connect and go out while later cells are
 * still being prepared (prompts, cache keys), instead of after all of them,
 * which on a 600-call suite held the first request back ~15 ms.
 */
async function startInTurns<T, R>(
  items: readonly T[],
  work: (item: T) => Promise<R>,
): Promise<Promise<R>[]> {
  const started: Promise<R>[] = [];
  for (const [i, item] of items.entries()) {
    if (i > 0 && i % CELLS_PER_TURN === 0)
      await new Promise<void>((resolve) => setImmediate(resolve));
    const result = work(item);
    // Promise.all sees a failure; this only keeps one from counting as unhandled while the loop waits.
    result.catch(() => undefined);
    started.push(result);
  }
  return started;
}

/** The canonical report over a set of results (a whole run, or a resumed one's stored and new results together). */
export function buildReport(input: {
  results: EvalResult[];
  suite: RunOptions["suite"];
  toolVersion: string;
  startedAt: number;
  finishedAt: number;
  maxCostUsd?: number;
  /** Prices the savings (savings.ts) from the calls' stored token usage. */
  priceOf: PriceOf;
}): Report {
  const { suite, toolVersion, startedAt, finishedAt, maxCostUsd, priceOf } = input;
  // Savings are computed here, from the calls, whenever a report is built (results stored before they existed included).
  const results = input.results.map((r) => ({ ...r, savings: savingsOfCalls(r.calls, priceOf) }));
  const count = (status: EvalResult["status"]) => results.filter((r) => r.status === status).length;
  const usage = results.reduce((sum, r) => addTokenUsage(sum, r.usage), ZERO_USAGE);
  const totalCost = results.reduce((sum, r) => sum + r.costUsd, 0);
  const reusedCalls = results.flatMap((r) => r.calls.filter((c) => c.reused));
  const agreement = judgeAgreement(results);
  const selfGrading = selfGradingWarnings(results);
  return {
    schemaVersion: 1,
    tool: { name: "rubric-studio", version: toolVersion },
    suite: {
      file: suite.file,
      ...(suite.description !== undefined ? { description: suite.description } : {}),
    },
    startedAt: new Date(startedAt).toISOString(),
    finishedAt: new Date(finishedAt).toISOString(),
    durationMs: finishedAt - startedAt,
    summary: {
      total: results.length,
      passed: count("passed"),
      failed: count("failed"),
      deferred: count("deferred"),
      judgeErrors: count("judge_error"),
      skipped: count("skipped"),
      ...(count("skipped") > 0 ? { skippedBy: skippedByOf(results) } : {}),
      vacuous: results.filter((r) => r.vacuous).length,
      judgeCalls: results.reduce((n, r) => n + r.judgeCalls, 0),
      costUsd: totalCost,
      usage,
      ...(reusedCalls.length ? { reused: { calls: reusedCalls.length } } : {}),
      savings: savingsOfCalls(
        results.flatMap((r) => r.calls),
        priceOf,
      ),
    },
    ...(maxCostUsd !== undefined ? { budget: { maxCostUsd, spentUsd: totalCost } } : {}),
    ...(agreement.length > 0 ? { agreement } : {}),
    ...(selfGrading.length > 0 ? { selfGrading } : {}),
    results,
  };
}

/**
 * 0 when every eval passed (deferred counts as passed), 1 otherwise: a fail,
 * a judge_error, a skip (budget, cancelled, interrupted), or a regression against the baseline.
 */
export function exitCodeOf(report: Report): 0 | 1 {
  const { failed, judgeErrors, skipped } = report.summary;
  return failed + judgeErrors + skipped + (report.baseline?.regressions ?? 0) > 0 ? 1 : 0;
}
