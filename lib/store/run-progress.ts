import type { RunStatus } from "./run-store";
import type { StoredModelCalls } from "./run-call-totals";
import type { RunOverview } from "./run-views";
import type { ModelPrice } from "../engine/cost/cost";
import { savingsOf } from "../engine/cost/savings";

// Everything the run page's figures show, computed from a run's overview:
// the page renders it on the server, and the progress stream sends it every
// half second. One snapshot for the header, the progress bar, the counts and
// the cost cards, so no two of them can disagree.

/**
 * The standard price of a stored call by its model and the provider that served it
 * (lib/judge/provider-resolution.ts's priceOfStoredCall).
 */
export type StoredCallPriceOf = (call: {
  model: string;
  provider: string | null;
}) => ModelPrice | undefined;

/**
 * A group of stored calls at its provider's price; unpriced when the judge priced none of them (a
 * declared provider named like a built-in one).
 */
function priced(group: StoredModelCalls, priceOf: StoredCallPriceOf): StoredModelCalls {
  return { ...group, price: group.pricedCalls === 0 ? null : (priceOf(group) ?? null) };
}

export const FINISHED_STATUSES: readonly RunStatus[] = ["completed", "cancelled", "failed"];

/**
 * The snapshot: results done of cells planned, judge calls done of those
 * planned (null: a run stored before plans were recorded), the cards' figures,
 * whether a cancel is pending, the seconds since grading started (the server's clock, so the browser's
 * does not matter; null while queued), and what the caches saved, priced by
 * the engine from the calls' tokens (lib/engine/cost/savings.ts, as every report is; each call at the price of the provider that served it, batch prices for batched calls). Its shape is declared once, by the view
 * that draws it (components/results/run-live.tsx); the page passing one to the
 * other checks that they agree.
 */
/**
 * The run's cost and tokens apart: the judges' (its judge calls made, from their call links) and the
 * generation's (the rest of the run's totals: the calls that made its candidates). A running run's
 * token total is its judge calls' until it finishes, so its generation tokens are not known yet (null).
 */
function judgeAndGeneration(run: RunOverview, finished: boolean) {
  const judgeUsd = run.callsByModel.reduce((n, m) => n + (m.madeUsd ?? 0), 0);
  const judgeTokens = run.callsByModel.reduce(
    (n, m) => n + m.usage.input + m.usage.output + m.usage.cacheRead + m.usage.cacheWrite,
    0,
  );
  const total = run.tokens.input + run.tokens.output + run.tokens.cacheRead + run.tokens.cacheWrite;
  // Float sums of the same costs in another order: a difference below a millionth of a cent is none.
  const generationUsd = run.costUsd - judgeUsd > 1e-8 ? run.costUsd - judgeUsd : 0;
  return {
    generationCalls: run.generationCalls,
    judgeUsd: Math.min(judgeUsd, run.costUsd),
    generationUsd,
    judgeTokens,
    generationTokens: finished ? Math.max(0, total - judgeTokens) : null,
  };
}

export function runProgress(input: { run: RunOverview; now: number; priceOf: StoredCallPriceOf }) {
  const { run, now, priceOf } = input;
  const finished = FINISHED_STATUSES.includes(run.status);
  const started = run.startedAt ?? (run.status === "queued" ? null : run.createdAt);
  const elapsedSeconds = started ? Math.max(0, now - started.getTime()) / 1000 : null;
  return {
    status: run.status,
    finished,
    cancelRequested: run.cancelRequested && !finished,
    done: run.results,
    total: run.totalCells,
    calls: { done: run.callsDone, planned: run.callsPlanned },
    vacuous: run.vacuous,
    counts: run.counts,
    costUsd: run.costUsd,
    judgeCalls: run.judgeCalls,
    tokens: run.tokens,
    apart: judgeAndGeneration(run, finished),
    reusedCalls: run.reusedCalls,
    unpricedCalls: run.unpricedCalls,
    savings: savingsOf({
      models: run.callsByModel.map((group) => priced(group, priceOf)),
      priceOf: () => undefined,
    }),
    elapsedSeconds,
  };
}
