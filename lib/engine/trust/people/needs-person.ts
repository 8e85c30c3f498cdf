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

/**
 * Why an item is in the queue, in words that say nothing of what the judges
 * answered (README: nothing of it before the label): every detail the queue
 * stores starts with its reason's line. A person's own question says itself.
 */
export const WHY_BEFORE_LABEL: Record<Exclude<ReviewReason, "asked">, string> = {
  human_review: "the judges left the review's decision to a person",
  judges_split: "the judges disagree",
  calibration_outlier: "the judge and the suite's label differ",
  position_biased: "the judge's choice changed with the order the outputs were shown in",
  uncertain: "the judge could not decide between the outputs",
};

/** What an item says before its label: a detail stored before details were neutral (it said who passed, what each judge chose) reads as its reason's line alone. */
export function detailBeforeLabel(reason: ReviewReason, detail: string): string {
  if (reason === "asked") return detail;
  const why = WHY_BEFORE_LABEL[reason];
  return detail.startsWith(why) ? detail : why;
}

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

/** The questions of the judges' splits (a result with several judges, or matrix cells pooled by judge model). */
export function splitQuestions(results: EvalResult[]): ReviewQuestion[] {
  return judgeDisagreements(results).map((d) => ({
    resultKey: d.resultId,
    evalName: d.eval,
    criterion: d.item,
    reason: "judges_split",
    // How they split (who passed, who scored what) is their answer: it shows once the label is saved.
    detail: `${WHY_BEFORE_LABEL.judges_split}: ${
      d.splitDecision ? "some pass it, some fail it" : "their scores are far apart"
    } (${d.verdicts.length} judges)`,
  }));
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
      // The rationale is the judges' reasoning: it shows once the label is saved.
      detail: WHY_BEFORE_LABEL.human_review,
    },
  ];
}

function pairwiseQuestions(result: EvalResult): ReviewQuestion[] {
  // One question per pair and reason, naming the judges it concerns; which output each chose, in which order, is their answer.
  type PairReason = "position_biased" | "uncertain";
  const byKey = new Map<string, { item: string; reason: PairReason; judges: string[] }>();
  for (const pair of result.pairwise?.pairs ?? []) {
    const reason: PairReason | undefined = pair.positionBiased
      ? "position_biased"
      : pair.winner === "uncertain"
        ? "uncertain"
        : undefined;
    if (!reason) continue;
    const key = `${pair.item}\u0000${reason}`;
    const seen = byKey.get(key);
    if (seen) seen.judges.push(pair.judge);
    else byKey.set(key, { item: pair.item, reason, judges: [pair.judge] });
  }
  return [...byKey.values()].map(({ item, reason, judges }) => ({
    resultKey: result.id,
    evalName: result.eval,
    criterion: item,
    reason,
    detail: `${WHY_BEFORE_LABEL[reason]} (${[...new Set(judges)].join(", ")})`,
  }));
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
  return `${WHY_BEFORE_LABEL.calibration_outlier}${where}`;
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
