import type { OutcomeCounts } from "@/lib/engine/results/report";
import type { Savings } from "@/lib/engine/results/savings-types";
import { costText, formatInt } from "./format";
import { etaText } from "./run-eta";

// A run's figures as the run page gets them (the server's first read, then the
// event stream's), which of two is newer, and the progress line they read as.
// run-live.tsx draws them.

/**
 * The stream's `progress` event: lib/store/run-progress.ts builds it on the server (components do
 * not import the store).
 */
export interface RunSnapshot {
  status: string;
  finished: boolean;
  /** A cancel was asked for and the run has not ended yet: the page says "cancelling…". */
  cancelRequested: boolean;
  done: number;
  total: number;
  vacuous: number;
  /** With the skipped results per cause, when any were skipped. */
  counts: OutcomeCounts;
  calls: { done: number; planned: number | null };
  costUsd: number;
  judgeCalls: number;
  tokens: { input: number; output: number; cacheRead: number; cacheWrite: number };
  /**
   * The cost and tokens of the judges and of the generation (the calls that made the candidates)
   * apart; the generation's tokens are null while the run runs (known when it finishes).
   */
  apart: {
    /** The calls that made the candidates, once the run finished (null before, or for a run that kept none). */
    generationCalls?: number | null;
    judgeUsd: number;
    generationUsd: number;
    judgeTokens: number;
    generationTokens: number | null;
  };
  reusedCalls: number;
  /** Judge calls made whose model has no price: the cost reads "unpriced" for them, never $0. */
  unpricedCalls: number;
  /**
   * What the prompt cache, the judge cache and Message Batches saved (lib/engine/cost/savings.ts,
   * as every report shows it).
   */
  savings: Savings;
  elapsedSeconds: number | null;
}

/** The newer of two snapshots of one run: a finished one, else the one further along. */
export function newerSnapshot(a: RunSnapshot, b: RunSnapshot | null): RunSnapshot {
  if (!b || a.finished) return a;
  if (b.finished) return b;
  return b.done > a.done || (b.done === a.done && b.calls.done >= a.calls.done) ? b : a;
}

/**
 * Judge calls done (made or reused), split as the cards count them: *Judge calls* the ones made,
 * *Reused verdicts* the others ("612 of 612 judge calls done (312 made, 300 reused)").
 */
function callsText(calls: RunSnapshot["calls"], reused: number): string {
  const done =
    calls.planned === null
      ? `${formatInt(calls.done)} judge calls done`
      : `${formatInt(calls.done)} of ${formatInt(calls.planned)} judge calls done`;
  return reused > 0
    ? `${done} (${formatInt(Math.max(0, calls.done - reused))} made, ${formatInt(reused)} reused)`
    : done;
}

/**
 * The progress line: the run's state, results done with their own percentage, judge calls, cost,
 * and the ETA (none while cancelling).
 */
export function progressSummary(shown: RunSnapshot, etaSeconds: number | null): string {
  const cancelling = !shown.finished && shown.cancelRequested;
  const percent = shown.finished
    ? 100
    : shown.total > 0
      ? Math.floor((shown.done / shown.total) * 100)
      : 0;
  const parts = [
    cancelling ? "cancelling…" : shown.status,
    `${formatInt(shown.done)} of ${formatInt(shown.total)} ${shown.total === 1 ? "result" : "results"} · ${percent}%`,
    callsText(shown.calls, shown.reusedCalls),
    `cost ${costText(shown)}`,
  ];
  if (!cancelling) parts.push(etaText(etaSeconds));
  return parts.join(" · ");
}
