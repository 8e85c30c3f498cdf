// How far a run is, and how long it has left, from the snapshots the progress
// stream sends. Pure, so the server's render and the browser's agree, and a
// test can feed it a run's worth of snapshots.

export interface ProgressSample {
  finished: boolean;
  /** Results stored, of `total` cells. */
  done: number;
  total: number;
  /** Judge calls finished, of those planned (null: not recorded). */
  calls: { done: number; planned: number | null };
  /** Seconds since the run started (the server's clock); null while queued. */
  elapsedSeconds: number | null;
}

/** 0 to 1: judge calls when the plan counted them, else results; 1 only once the run has finished. */
export function progressFraction(p: ProgressSample): number {
  if (p.finished) return 1;
  const byResults = p.total > 0 ? p.done / p.total : 0;
  const byCalls = p.calls.planned ? Math.min(1, p.calls.done / p.calls.planned) : 0;
  // A cell that defers makes no call, and a cell's calls land before its result: the further of the two.
  return Math.min(0.99, Math.max(byResults, byCalls));
}

/** Seconds left at the pace so far (elapsed per unit of progress, times what is left); null before any progress. */
export function rawEta(p: ProgressSample): number | null {
  const fraction = progressFraction(p);
  if (p.finished || p.elapsedSeconds === null || fraction <= 0) return null;
  return Math.max(0, (p.elapsedSeconds * (1 - fraction)) / fraction);
}

export interface EtaEstimate {
  seconds: number;
  /** When it was made (ms, the browser's clock): the next one counts down from it. */
  at: number;
}

/** Weight of a new raw estimate against the previous one counted down. */
const ALPHA = 0.3;
/** The most an estimate may grow from one update to the next, so a slow wave of calls does not make it leap. */
const MAX_RISE = 1.25;
/** ...plus a few seconds, so an estimate near zero can still grow when the run stalls. */
const RISE_SLACK_SECONDS = 3;

/**
 * The ETA shown: the previous estimate counted down by the time since, pulled
 * towards the new raw estimate by exponential smoothing; never negative, and
 * never rising by more than a quarter (plus a few seconds) at one update.
 */
export function smoothEta(previous: EtaEstimate | null, raw: number | null, now: number): EtaEstimate | null {
  if (raw === null) return null;
  if (!previous) return { seconds: raw, at: now };
  const elapsed = Math.max(0, (now - previous.at) / 1000);
  const projected = Math.max(0, previous.seconds - elapsed);
  const blended = projected + ALPHA * (raw - projected);
  return { seconds: Math.max(0, Math.min(blended, projected * MAX_RISE + RISE_SLACK_SECONDS)), at: now };
}

export function formatEta(seconds: number | null): string {
  if (seconds === null) return "—";
  const s = Math.round(seconds);
  if (s < 60) return `${s} s`;
  return `${Math.floor(s / 60)} min ${s % 60} s`;
}
