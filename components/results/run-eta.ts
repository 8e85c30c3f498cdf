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

/**
 * The pace since the run started misleads early on: the start (the queue, the
 * first call of each shared prefix sent alone to warm the prompt cache) is slow,
 * and an estimate from the first result or two multiplies that by everything
 * left (3 min 26 s shown with ~70 s left). Below this much progress it is not used.
 */
const START_PACE_MIN_PROGRESS = 0.2;
/** Progress since the pace's origin before an estimate is made from it. */
const PACE_MIN_PROGRESS = 0.03;

/**
 * Seconds left at the pace since the run started (elapsed per unit of progress, times what is
 * left); null before enough progress.
 */
export function rawEta(p: ProgressSample): number | null {
  const fraction = progressFraction(p);
  if (p.finished || p.elapsedSeconds === null || fraction < START_PACE_MIN_PROGRESS) return null;
  return Math.max(0, (p.elapsedSeconds * (1 - fraction)) / fraction);
}

/**
 * Where the pace is measured from: the first sample seen with progress (on a page opened mid-run,
 * the first one it got).
 */
export interface PaceOrigin {
  elapsedSeconds: number;
  fraction: number;
}

/** Seconds left at the pace since `origin`; null until progress has moved on from it. */
export function paceEta(origin: PaceOrigin | null, p: ProgressSample): number | null {
  const fraction = progressFraction(p);
  if (!origin || p.finished || p.elapsedSeconds === null) return null;
  const moved = fraction - origin.fraction;
  const took = p.elapsedSeconds - origin.elapsedSeconds;
  if (moved < PACE_MIN_PROGRESS || took <= 0) return null;
  return Math.max(0, (took / moved) * (1 - fraction));
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
export function smoothEta(
  previous: EtaEstimate | null,
  raw: number | null,
  now: number,
): EtaEstimate | null {
  if (raw === null) return null;
  if (!previous) return { seconds: raw, at: now };
  const elapsed = Math.max(0, (now - previous.at) / 1000);
  const projected = Math.max(0, previous.seconds - elapsed);
  const blended = projected + ALPHA * (raw - projected);
  return {
    seconds: Math.max(0, Math.min(blended, projected * MAX_RISE + RISE_SLACK_SECONDS)),
    at: now,
  };
}

/** The run page's ETA state: where its pace is measured from, and the estimate shown. */
export interface EtaState {
  origin: PaceOrigin | null;
  estimate: EtaEstimate | null;
}

/**
 * The next ETA state from a new snapshot: the pace is measured from the first
 * sample that showed progress (the slow start left out), or, until that pace
 * is known, from the run's start once enough of it is done; then smoothed.
 */
export function nextEta(state: EtaState | null, p: ProgressSample, now: number): EtaState {
  const fraction = progressFraction(p);
  const origin =
    state?.origin ??
    (p.elapsedSeconds !== null && fraction > 0 && !p.finished
      ? { elapsedSeconds: p.elapsedSeconds, fraction }
      : null);
  const raw = paceEta(origin, p) ?? rawEta(p);
  return { origin, estimate: smoothEta(state?.estimate ?? null, raw, now) };
}

export function formatEta(seconds: number | null): string {
  if (seconds === null) return "—";
  const s = Math.round(seconds);
  if (s < 60) return `${s} s`;
  return `${Math.floor(s / 60)} min ${s % 60} s`;
}

/**
 * The progress line's ETA: "finishing…" once it rounds to 0 s while the run still runs (the last
 * calls can take seconds more, and "ETA 0 s" read as a stuck page); "ETA —" before there is one.
 */
export function etaText(seconds: number | null): string {
  return seconds !== null && Math.round(seconds) < 1 ? "finishing…" : `ETA ${formatEta(seconds)}`;
}
