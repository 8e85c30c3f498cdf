import type { SkippedBy } from "./skip-kind";

// A result's outcome, and the results counted per outcome. A leaf beside
// report.ts, so that the types report.ts is built from can name it.

export type EvalStatus = "passed" | "failed" | "deferred" | "judge_error" | "skipped";

export const EVAL_STATUSES: EvalStatus[] = [
  "passed",
  "failed",
  "deferred",
  "judge_error",
  "skipped",
];

/** Results per outcome, with the skipped ones per cause where it is known (the dashboard's count cards). */
export type OutcomeCounts = Record<EvalStatus, number> & { skippedBy?: SkippedBy };
