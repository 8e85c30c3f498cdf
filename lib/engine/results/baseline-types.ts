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

/**
 * Two stored runs compared for the History page (lib/store/run-comparison.ts): the counts over
 * every result, and only the first of the deltas in the page's order (the worst first).
 */
export interface RunsCompared extends BaselineComparison {
  /** Results of the later run compared, over all of them; `deltas` holds the first of these. */
  compared: number;
  /** Graded now and not before (skipped or deferred then), and the other way round. */
  nowGraded: number;
  noLongerGraded: number;
}
