import { judgeDisagreements } from "../agreement/judge-disagreements";
import type { EvalResult } from "../../results/report";
import type { CalibrationResult } from "../../results/trust";

// What a finished run leaves for a person: the questions the judges could
// not settle, each with why it is asked. One rule per reason, so the queue
// reads the same whichever way the run was made (CLI, dashboard, worker).

export const REVIEW_REASONS = [
  "human_review",
  "judges_split",
  "calibration_outlier",
  "position_biased",
  "uncertain",
  "asked",
] as const;
export type ReviewReason = (typeof REVIEW_REASONS)[number];

export const REVIEW_REASON_LABELS: Record<ReviewReason, string> = {
  human_review: "review needs a person",
  judges_split: "judges split",
  calibration_outlier: "calibration outlier",
  position_biased: "position-biased pair",
  uncertain: "judge uncertain",
  asked: "asked by a person",
};

/** The criterion of a review's decision (the whole review, not one category). */
export const DECISION_ITEM = "(decision)";

export interface ReviewQuestion {
  /** The result's key (eval_results.result_key), or a calibration item's id. */
  resultKey: string;
  evalName: string;
  /** A criterion or category name, "(rubric)", "(decision)", or a compared pair's item id. */
  criterion: string;
  reason: ReviewReason;
  /** Why, in one line. */
  detail: string;
}

function splitQuestions(results: EvalResult[]): ReviewQuestion[] {
  return judgeDisagreements(results).map((d) => {
    const passed = d.verdicts.filter((v) => v.passed).length;
    const said = d.verdicts.map((v) => `${v.judge} ${v.label}`).join(", ");
    const why = d.splitDecision
      ? `${passed} of ${d.verdicts.length} judges passed`
      : `scores spread ${d.spread.toFixed(2)}`;
    return {
      resultKey: d.resultId,
      evalName: d.eval,
      criterion: d.item,
      reason: "judges_split",
      detail: `${why} (${said})`,
    };
  });
}

function reviewQuestions(result: EvalResult): ReviewQuestion[] {
  const decision = result.review?.report.decision;
  if (decision?.status !== "human_review") return [];
  return [
    {
      resultKey: result.id,
      evalName: result.eval,
      criterion: DECISION_ITEM,
      reason: "human_review",
      detail: `decided human_review: ${decision.rationale}`,
    },
  ];
}

function pairwiseQuestions(result: EvalResult): ReviewQuestion[] {
  const byKey = new Map<string, ReviewQuestion>();
  const add = (item: string, reason: ReviewReason, why: string) => {
    const key = `${item}\u0000${reason}`;
    const seen = byKey.get(key);
    if (seen) seen.detail = `${seen.detail}; ${why}`;
    else
      byKey.set(key, {
        resultKey: result.id,
        evalName: result.eval,
        criterion: item,
        reason,
        detail: why,
      });
  };
  for (const pair of result.pairwise?.pairs ?? []) {
    if (pair.positionBiased)
      add(
        pair.item,
        "position_biased",
        `${pair.judge} chose ${pair.original} with A first and ${pair.swappedMapped} with B first`,
      );
    else if (pair.winner === "uncertain")
      add(
        pair.item,
        "uncertain",
        `${pair.judge} could not decide (${pair.original} with A first, ${pair.swappedMapped} with B first)`,
      );
  }
  return [...byKey.values()];
}

/** Every question a run's results leave for a person, in the order of the results. */
export function needsPerson(results: EvalResult[]): ReviewQuestion[] {
  const graded = results.filter((r) => r.status !== "skipped");
  return [
    ...graded.flatMap(reviewQuestions),
    ...splitQuestions(graded),
    ...graded.flatMap(pairwiseQuestions),
  ];
}

/** What a calibration outlier says before a person answers: neither the suite's label nor the judge's score (README: not shown until you have answered). */
export function calibrationOutlierDetail(evals: readonly string[]): string {
  const where =
    evals.length > 1 ? ` (in ${evals.length} evals sharing the rubric: ${evals.join(", ")})` : "";
  return `the judge and the suite's label differ${where}`;
}

/**
 * A calibration's outliers: anchors or labelled items the judge missed by more
 * than the tolerance, one question per criterion and item. An anchor of a rubric
 * several evals share is one question (its right label is the same in each), so
 * it is asked once, saying which evals missed it; the calibration view counts these.
 */
export function calibrationQuestions(calibration: CalibrationResult): ReviewQuestion[] {
  const byKey = new Map<string, { question: ReviewQuestion; evals: string[] }>();
  for (const c of calibration.criteria) {
    for (const i of c.items.filter((x) => x.outlier)) {
      const key = `${c.item}\u0000${i.id}`;
      const seen = byKey.get(key);
      if (seen) seen.evals.push(c.eval);
      else
        byKey.set(key, {
          question: {
            resultKey: i.id,
            evalName: c.eval,
            criterion: c.item,
            reason: "calibration_outlier",
            detail: "",
          },
          evals: [c.eval],
        });
    }
  }
  return [...byKey.values()].map(({ question, evals }) => ({
    ...question,
    detail: calibrationOutlierDetail(evals),
  }));
}
