import type { OutcomeCounts } from "../engine/report";
import type { RunStatus } from "./run-store";
import type { RunOverview } from "./run-views";

// What the run page's live view shows, computed from a run's overview: the
// event the progress stream sends every half second.

export interface RunProgress {
  status: RunStatus;
  /** completed, cancelled or failed: the stream ends. */
  finished: boolean;
  done: number;
  total: number;
  counts: OutcomeCounts;
  costUsd: number;
  /** Seconds left at the pace so far; null before the first result or once finished. */
  etaSeconds: number | null;
}

export const FINISHED_STATUSES: readonly RunStatus[] = ["completed", "cancelled", "failed"];

export function runProgress(run: RunOverview, now: number): RunProgress {
  const finished = FINISHED_STATUSES.includes(run.status);
  const elapsed = Math.max(0, now - run.createdAt.getTime()) / 1000;
  const left = Math.max(0, run.totalCells - run.results);
  const etaSeconds = finished || run.results === 0 ? null : Math.round((elapsed / run.results) * left);
  return { status: run.status, finished, done: run.results, total: run.totalCells, counts: run.counts, costUsd: run.costUsd, etaSeconds };
}
