import type { JudgeOutcome, JudgeRequest } from "../ports/judge-port";
import type { EvalResult } from "../results/report";
import type { SkipReason } from "./call-scheduler";
import { skipDetail, skipLabel, skippedFields } from "../results/skip-kind";
import type { ScoreVerdict, ScoreVerdictKind, VerdictKind, VerdictOf } from "../ports/verdict";

// How a grader reaches the judge: one request through the scheduler, which
// either makes the call or skips it (budget, cancel). Shared by every rubric
// form's grader (cell/grade-cell.ts, review/, pairwise/), so they stand on this
// leaf and never import one another for it.

export type CallResult<V = ScoreVerdict> =
  { kind: "done"; outcome: JudgeOutcome<V> } | { kind: "skipped"; reason: SkipReason };
/** Sends one request through the scheduler; the outcome's verdict is of the request's kind. */
export type CallJudge = <K extends VerdictKind = ScoreVerdictKind>(
  request: JudgeRequest<K>,
) => Promise<CallResult<VerdictOf<K>>>;

// A call the scheduler never started, per reason: on a verdict, on a criterion, on the eval.
export const SKIPPED = {
  verdict: (kind: SkipReason) => skipLabel(kind),
  criterion: (kind: SkipReason) => skipDetail(kind, "this criterion's judge call"),
  eval: (kind: SkipReason) => skippedFields(kind, "all of this eval's judge calls could be made"),
};

/** The fields gradeCell has already worked out for every result. */
export type ResultBase = Pick<
  EvalResult,
  | "id"
  | "name"
  | "eval"
  | "cell"
  | "threshold"
  | "scale"
  | "thresholdDisplay"
  | "rubric"
  | "judge"
  | "candidate"
  | "location"
>;
