import type { JudgeOutcome, JudgeRequest } from "./ports/judge-port";
import type { VerdictKind, VerdictOf } from "./ports/verdict";
import type { EvalResult } from "./results/report";
import { planCells, planTotals, type PlanOptions } from "./plan/plan-suite";
import { CallScheduler, type ScheduleStop } from "./grade/call-scheduler";
import { EXPECTED_OUTPUT_TOKENS, estimateRequest } from "./plan/explain-plan";
import { gradeCell } from "./cell/grade-cell";
import type { CallJudge } from "./grade/call-judge";
import type { PlannedCell } from "./grade/planned-cell";
import { gradeLiveCell, type LiveRuns } from "./cell/grade-live-cell";
import { gradeCellComparison } from "./cell/grade-cell-comparison";
import type { LiveRequest } from "./ports/live-port";
import { batchPriceOf, costOf } from "./cost/cost";
import { cacheTtlFor } from "./grade/cache-ttl";
import { ReportTotals, type ReportHead } from "./trust/report-totals";
import type { EngineDeps, RunOptions } from "./run-types";

// Runs a suite as a stream (issue 20): cells are pulled one at a time from the
// plan, at most a window of them in flight (a small multiple of the
// concurrency), each judge call under the concurrency limit and the budget;
// each result goes to `deps.onEvent` ("result") as soon as it and every cell
// planned before it are done (so results come out in plan order, and reports
// read the same whatever the timing), and is folded into the report's figures
// (trust/report-totals.ts). Nothing grows with the run: not the cells, not the
// promises, not the results. All side effects arrive through `deps` (DESIGN.md,
// house rule 3).

/** Planned cells and their totals, known before the first is graded. */
export interface CellSource {
  cells: number;
  judgeCalls: number;
  /** In plan order. */
  each: AsyncIterable<PlannedCell> | Iterable<PlannedCell>;
}

/** A resumed run's or a worker's few cells are held; more than this are planned twice instead (counted, then graded). */
const HELD_CELLS = 10_000;

/**
 * The cells to grade and their totals, from the lazy planner: the whole plan's
 * totals by arithmetic; for a resumed run, a worker's job or a regrade, the
 * totals of the cells kept, counted in one pass of the plan (a few cells are
 * held, more are planned again as they are graded), so a million-cell plan is
 * never held as objects.
 */
export async function cellSourceOf(
  options: PlanOptions & Pick<RunOptions, "skipResultIds" | "onlyResultIds">,
): Promise<CellSource> {
  const { skipResultIds: skip, onlyResultIds: only } = options;
  if (!skip && !only) return { ...planTotals(options), each: planCells(options) };
  const keep = (cell: PlannedCell) => !skip?.has(cell.id) && (!only || only.has(cell.id));
  const held: PlannedCell[] = [];
  let cells = 0;
  let judgeCalls = 0;
  const hold = only !== undefined && only.size <= HELD_CELLS;
  for await (const cell of planCells(options)) {
    if (!keep(cell)) continue;
    cells++;
    judgeCalls += cell.judgeCalls;
    if (hold) held.push(cell);
  }
  return { cells, judgeCalls, each: hold ? held : keptCells(planCells(options), keep) };
}

async function* keptCells(
  cells: AsyncIterable<PlannedCell>,
  keep: (cell: PlannedCell) => boolean,
): AsyncGenerator<PlannedCell> {
  for await (const cell of cells) if (keep(cell)) yield cell;
}

/** Cells in flight per concurrency slot: enough that a slot freed finds a call ready. */
const WINDOW_PER_SLOT = 2;
const MIN_WINDOW = 16;

/** How many planned cells a run holds at once (started, not yet handed to the sink). */
export function cellWindow(concurrency: number): number {
  return Math.max(MIN_WINDOW, WINDOW_PER_SLOT * concurrency);
}

/** Why a live cell defers when the run has no live port. */
export const LIVE_UNAVAILABLE = "live agent runs are not enabled here";

export async function streamSuite(
  options: RunOptions & {
    source?: CellSource;
    /** The figures to fold this run's results into: a resumed run's already hold its stored results. */
    totals?: ReportTotals;
  },
  deps: EngineDeps,
): Promise<ReportHead> {
  const startedAt = deps.now();
  const liveUnavailable = options.liveUnavailable ?? (deps.live ? undefined : LIVE_UNAVAILABLE);
  const source = options.source ?? (await cellSourceOf({ ...options, liveUnavailable }));
  const scheduler =
    options.scheduler ??
    new CallScheduler({ concurrency: options.concurrency, maxCostUsd: options.maxCostUsd });
  // Stops are per call, not on the scheduler: a worker's scheduler is shared with other runs.
  const stops: ScheduleStop[] = [
    ...(options.signal ? [{ signal: options.signal, kind: "interrupted" as const }] : []),
    ...(options.shutdown ? [{ signal: options.shutdown, kind: "interrupted" as const }] : []),
    ...(options.cancel ? [{ signal: options.cancel, kind: "cancelled" as const }] : []),
  ];
  // A worker's chunk taken earlier is served first (call-scheduler.ts).
  const priority = options.priority !== undefined ? { priority: options.priority } : {};
  // A tree may stop before its longest path; the planned total is an upper bound.
  let plannedCalls = source.judgeCalls;
  let callsDone = 0;
  let costUsd = 0;
  deps.onEvent?.({ type: "start", evals: source.cells, judgeCalls: plannedCalls });
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
      { stops, prefixes: deps.judge.cachePrefixes?.(request) ?? [], ...priority },
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
      { stops, ...priority },
    );
    if (scheduled.skipped) return scheduled;
    costUsd += scheduled.value.cost ?? 0;
    return { skipped: false, value: scheduled.value.value };
  };
  const liveRuns: LiveRuns = new Map();

  const totals = options.totals ?? new ReportTotals(deps.priceOf);
  let evalsDone = 0;
  const grade = async (cell: PlannedCell): Promise<EvalResult> => {
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
            ...(options.agentsReplayed ? { replayed: true } : {}),
          })
        : await gradeCell({ cell, call, now: deps.now });
    // Calls a tree did not need, or that the budget refused, leave the total.
    plannedCalls -= cell.judgeCalls - graded.calls.length;
    return deps.redact ? deps.redact.deep(graded) : graded;
  };
  const handOver = (graded: EvalResult) => {
    const result = totals.add(graded);
    evalsDone++;
    deps.onEvent?.({ type: "result", result, done: evalsDone, total: source.cells });
  };
  await inWindow({
    items: source.each,
    size: cellWindow(options.concurrency),
    work: grade,
    done: handOver,
  });

  return totals.head({
    suite: options.suite,
    toolVersion: options.toolVersion,
    startedAt,
    finishedAt: deps.now(),
    ...(options.maxCostUsd !== undefined ? { maxCostUsd: options.maxCostUsd } : {}),
  });
}

/**
 * Starts `work` on each item in order, at most `size` started and not yet
 * handed to `done`, which sees the outcomes in the items' order. The event
 * loop gets a turn after each start, so the first judge requests connect and
 * go out while later cells are still being prepared (prompts, cache keys)
 * instead of after all of them (on a 600-call suite that held the first
 * request back ~15 ms). A failure ends the run with it, as Promise.all would.
 */
export async function inWindow<T, R>(input: {
  items: AsyncIterable<T> | Iterable<T>;
  size: number;
  work: (item: T) => Promise<R>;
  done: (outcome: R) => void;
}): Promise<void> {
  const { size, work, done } = input;
  // A FIFO of the started items' outcomes, in plan order (head index, no shift: O(1) per item).
  const started: Promise<R>[] = [];
  let head = 0;
  const takeHead = async () => {
    const outcome = await started[head]!;
    started[head++] = undefined as never;
    if (head > 1024 && head * 2 > started.length) {
      started.splice(0, head);
      head = 0;
    }
    done(outcome);
  };
  let first = true;
  for await (const item of input.items) {
    if (!first) await new Promise<void>((resolve) => setImmediate(resolve));
    first = false;
    const outcome = work(item);
    // The head's await sees a failure; this only keeps one from counting as unhandled meanwhile.
    outcome.catch(() => undefined);
    started.push(outcome);
    if (started.length - head >= size) await takeHead();
  }
  while (head < started.length) await takeHead();
}
