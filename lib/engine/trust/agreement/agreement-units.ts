import type { Scale } from "../../../config/types";
import type { EvalResult } from "../../results/report";
import type { MeasurementLevel } from "../../../stats/registry";
import { formatScore } from "../../results/format-score";
import { cellName } from "../../plan/plan-suite";

// The ratings behind every agreement figure, with where each came from: for
// every eval graded by several judges, per criterion or category (or for the
// whole rubric when it has none), one unit per graded candidate holding each
// judge's rating in the scale's own values, with its score and reasoning.
// Matrix cells that differ only by their judge model (matrix.models) grade the
// same candidate, so they are one unit whose raters are those models (issue
// 11): "which judge models agree, on which criteria" holds for any matrix.
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
  /** The result (matrix cell) this verdict was given in, when the unit pools several. */
  resultId?: string;
  /** The judge model's provider, when it was resolved (anthropic, openai, or one declared). */
  provider?: string;
}

export interface AgreementUnit {
  /** The result it was graded in (the first, for cells that differ only by judge model). */
  resultId: string;
  /** Its name; for cells pooled across judge models, the candidate's coordinates without the model. */
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
export function ratingOf(input: {
  score: number;
  scale: Scale;
  threshold: number;
  guard: boolean;
}): number {
  const { score, scale } = input;
  if (scale.kind === "likert") return Math.round(scale.min + score * (scale.max - scale.min));
  if (scale.kind === "boolean")
    return (input.guard ? 1 - score : score) >= input.threshold - 1e-9 ? 1 : 0;
  if (scale.kind === "letter")
    return [0.9, 0.8, 0.7, 0.6].filter((floor) => score >= floor - 1e-9).length;
  return score;
}

function rated(input: {
  judge: string;
  score: number;
  reasoning: string;
  scale: Scale;
  threshold: number;
  guard: boolean;
  review: boolean;
}): RatedVerdict {
  const { score, scale, review } = input;
  // Review verdicts are already points (pass 1, partial 0.5, fail 0): nominal codes.
  const rating = review ? score : ratingOf(input);
  const effective = input.guard ? 1 - score : score;
  return {
    judge: input.judge,
    rating,
    score,
    label: review
      ? (REVIEW_LABELS.get(score) ?? score.toFixed(2))
      : formatScore({ score: input.guard ? effective : score, scale, passed: rating === 1 }),
    reasoning: input.reasoning,
    passed: effective >= input.threshold - 1e-9,
  };
}

/** A candidate's coordinates: a result's cell without its judge model. */
function candidateKey(result: EvalResult): string {
  const { model: _model, ...rest } = result.cell ?? {};
  return JSON.stringify([
    result.eval,
    rest.item ?? null,
    rest.agent ?? null,
    rest.promptIndex ?? null,
    rest.prompt ?? null,
  ]);
}

function candidateName(result: EvalResult): string {
  const { model: _model, ...rest } = result.cell ?? {};
  return Object.keys(rest).length === 0 ? result.eval : cellName(result.eval, rest);
}

const judgesOf = (r: EvalResult) => new Set(r.judges.map((j) => j.judge));

/**
 * The graded results (pairwise comparisons measure position bias instead), in
 * groups that grade one candidate: the cells of an eval that differ only by
 * judge model, when their judges are distinct (a panel repeated in every
 * model cell is not pooled), else each result on its own. Only groups with two
 * or more judges are kept.
 */
function candidateGroups(results: EvalResult[]): EvalResult[][] {
  const graded = results.filter(
    (r) => (r.status === "passed" || r.status === "failed") && !r.pairwise,
  );
  const byKey = new Map<string, EvalResult[]>();
  for (const r of graded) {
    const key = r.cell?.model !== undefined ? candidateKey(r) : `\u0000${r.id}`;
    byKey.set(key, [...(byKey.get(key) ?? []), r]);
  }
  return [...byKey.values()]
    .flatMap((group) => {
      const labels = group.flatMap((r) => [...judgesOf(r)]);
      return new Set(labels).size === labels.length ? [group] : group.map((r) => [r]);
    })
    .filter((group) => new Set(group.flatMap((r) => [...judgesOf(r)])).size >= 2);
}

/** The eval results that several judges graded, alone or with the cells that differ from them only by judge model. */
export function multiJudgeResults(results: EvalResult[]): EvalResult[] {
  return candidateGroups(results).flat();
}

const providerOf = (r: EvalResult, judge: string, model?: string) => {
  const provider =
    r.judges.find((j) => j.judge === judge)?.provider ??
    (model !== undefined ? r.judge.providers?.[model] : undefined);
  return provider === undefined ? {} : { provider };
};

/** Per eval, in order of first appearance: its items (criteria in rubric order), each with one unit per graded candidate. */
export function agreementItems(
  results: EvalResult[],
): { eval: string; level: MeasurementLevel; items: AgreementItem[] }[] {
  const groups = candidateGroups(results);
  const evals = [...new Set(groups.map((g) => g[0]!.eval))];
  return evals.map((name) => {
    const cells = groups.filter((g) => g[0]!.eval === name);
    const first = cells[0]![0]!;
    const review = first.review !== undefined;
    const level = levelOf(first.scale, review);
    const pooled = (group: EvalResult[]) => group.length > 1;
    const unitOf = (
      group: EvalResult[],
      verdicts: (r: EvalResult) => RatedVerdict[],
    ): AgreementUnit => ({
      resultId: group[0]!.id,
      resultName: pooled(group) ? candidateName(group[0]!) : group[0]!.name,
      verdicts: group.flatMap((r) =>
        verdicts(r).map((v) => ({ ...v, ...(pooled(group) ? { resultId: r.id } : {}) })),
      ),
    });
    if (first.criteria.length === 0) {
      // Free-form and tree rubrics: each judge's score for the whole rubric.
      const units = cells.map((group) =>
        unitOf(group, (r) =>
          r.judges.flatMap((j) =>
            j.score === null
              ? []
              : [
                  {
                    ...rated({
                      judge: j.judge,
                      score: j.score,
                      // A free-form verdict's own reasoning; a tree's, its path's.
                      reasoning:
                        j.reasoning ?? j.treePath?.map((s) => s.reasoning).join(" → ") ?? "",
                      scale: r.scale,
                      threshold: r.threshold,
                      guard: false,
                      review,
                    }),
                    ...providerOf(r, j.judge, j.model),
                  },
                ],
          ),
        ),
      );
      return { eval: name, level, items: [{ eval: name, item: RUBRIC_ITEM, level, units }] };
    }
    const names = [
      ...new Set(cells.flatMap((g) => g.flatMap((r) => r.criteria.map((c) => c.name)))),
    ];
    const items = names.map((item) => ({
      eval: name,
      item,
      level,
      units: cells.flatMap((group) => {
        const graded = group.filter(
          (r) => r.criteria.find((x) => x.name === item)?.status === "graded",
        );
        if (graded.length === 0) return [];
        return [
          unitOf(graded, (r) => {
            const c = r.criteria.find((x) => x.name === item)!;
            return c.verdicts.flatMap((v) =>
              v.score === null
                ? []
                : [
                    {
                      ...rated({
                        judge: v.judge,
                        score: v.score,
                        reasoning: v.reasoning,
                        scale: r.scale,
                        threshold: c.threshold,
                        guard: c.guard,
                        review,
                      }),
                      ...providerOf(r, v.judge, v.model),
                    },
                  ],
            );
          }),
        ];
      }),
    }));
    return { eval: name, level, items };
  });
}
