import type { EvalStatus } from "./eval-status";

/** The score-delta gate (compare-baseline.ts): each result against the same result of a baseline run. */
export interface BaselineDelta {
  id: string;
  name: string;
  baselineScore: number | null;
  score: number | null;
  /** score - baselineScore; null when either side has no score. */
  delta: number | null;
  baselineStatus: EvalStatus | null;
  status: EvalStatus;
  newlyFailing: boolean;
  newlyPassing: boolean;
  /** Dropped by more than maxDrop, or newly failing. */
  regressed: boolean;
}

export interface BaselineComparison {
  runId: string;
  maxDrop: number;
  deltas: BaselineDelta[];
  regressions: number;
  newlyFailing: number;
  newlyPassing: number;
  /** Results of this run the baseline does not have (new evals or cells). */
  unmatched: number;
}
