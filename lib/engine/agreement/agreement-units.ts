import type { Scale } from "../../config/types";
import type { EvalResult } from "../results/report";
import type { MeasurementLevel } from "../../stats/registry";
import { formatScore } from "../format-score";

// The ratings behind every agreement figure, with where each came from: for
// every eval graded by several judges, per criterion or category (or for the
// whole rubric when it has none), one unit per graded cell holding each
// judge's rating in the scale's own values, with its score and reasoning.
// judgeAgreement turns units into statistics, jurorAgreementMatrices into a
// juror × juror matrix and judgeDisagreements into the rows a person reads, so
// all three see the same ratings.

export interface RatedVerdict {
  judge: string;
  /** The rating the statistics use: the unit score, a likert point, 1/0 for pass/fail, letter rank, review points. */
  rating: number;
  /** The judge's own score in 0..1. */
  score: number;
  /** The rating as a person reads it: "0.80", "4/5", "pass", "B", "partial". */
  label: string;
  reasoning: string;
  /** Whether this judge alone would pass the criterion (unit scores: against its threshold, a guard inverted). */
  passed: boolean;
}

export interface AgreementUnit {
  resultId: string;
  resultName: string;
  verdicts: RatedVerdict[];
}

export interface AgreementItem {
  eval: string;
  /** A criterion or category name, or "(rubric)" for a free-form or tree rubric without criteria. */
  item: string;
  level: MeasurementLevel;
  units: AgreementUnit[];
}

export const RUBRIC_ITEM = "(rubric)";
const REVIEW_LABELS = new Map([
  [1, "pass"],
  [0.5, "partial"],
  [0, "fail"],
]);

export function levelOf(scale: Scale, review: boolean): MeasurementLevel {
  if (review || scale.kind === "boolean") return "nominal";
  return scale.kind === "unit" ? "interval" : "ordinal";
}

/** A judge's rating in the scale's own values, so ordinal and nominal statistics see the categories a person sees. */
export function ratingOf(input: { score: number; scale: Scale; threshold: number; guard: boolean }): number {
  const { score, scale } = input;
  if (scale.kind === "likert") return Math.round(scale.min + score * (scale.max - scale.min));
  if (scale.kind === "boolean") return (input.guard ? 1 - score : score) >= input.threshold - 1e-9 ? 1 : 0;
  if (scale.kind === "letter") return [0.9, 0.8, 0.7, 0.6].filter((floor) => score >= floor - 1e-9).length;
  return score;
}

function rated(input: { judge: string; score: number; reasoning: string; scale: Scale; threshold: number; guard: boolean; review: boolean }): RatedVerdict {
  const { score, scale, review } = input;
  // Review verdicts are already points (pass 1, partial 0.5, fail 0): nominal codes.
  const rating = review ? score : ratingOf(input);
  const effective = input.guard ? 1 - score : score;
  return {
    judge: input.judge,
    rating,
    score,
    label: review ? (REVIEW_LABELS.get(score) ?? score.toFixed(2)) : formatScore({ score: input.guard ? effective : score, scale, passed: rating === 1 }),
    reasoning: input.reasoning,
    passed: effective >= input.threshold - 1e-9,
  };
}

/** The eval results that several judges graded (pairwise comparisons measure position bias instead). */
export function multiJudgeResults(results: EvalResult[]): EvalResult[] {
  return results.filter((r) => (r.status === "passed" || r.status === "failed") && !r.pairwise && new Set(r.judges.map((j) => j.judge)).size >= 2);
}

/** Per eval, in order of first appearance: its items (criteria in rubric order), each with one unit per graded cell. */
export function agreementItems(results: EvalResult[]): { eval: string; level: MeasurementLevel; items: AgreementItem[] }[] {
  const graded = multiJudgeResults(results);
  const evals = [...new Set(graded.map((r) => r.eval))];
  return evals.map((name) => {
    const cells = graded.filter((r) => r.eval === name);
    const first = cells[0]!;
    const review = first.review !== undefined;
    const level = levelOf(first.scale, review);
    if (first.criteria.length === 0) {
      // Free-form and tree rubrics: each judge's score for the whole rubric.
      const units = cells.map((r) => ({
        resultId: r.id,
        resultName: r.name,
        verdicts: r.judges.flatMap((j) => (j.score === null ? [] : [rated({ judge: j.judge, score: j.score, reasoning: j.treePath?.map((s) => s.reasoning).join(" → ") ?? "", scale: r.scale, threshold: r.threshold, guard: false, review })])),
      }));
      return { eval: name, level, items: [{ eval: name, item: RUBRIC_ITEM, level, units }] };
    }
    const names = [...new Set(cells.flatMap((r) => r.criteria.map((c) => c.name)))];
    const items = names.map((item) => ({
      eval: name,
      item,
      level,
      units: cells.flatMap((r) => {
        const c = r.criteria.find((x) => x.name === item);
        if (!c || c.status !== "graded") return [];
        const verdicts = c.verdicts.flatMap((v) => (v.score === null ? [] : [rated({ judge: v.judge, score: v.score, reasoning: v.reasoning, scale: r.scale, threshold: c.threshold, guard: c.guard, review })]));
        return [{ resultId: r.id, resultName: r.name, verdicts }];
      }),
    }));
    return { eval: name, level, items };
  });
}
