import type { Scale } from "../../config/types";
import type { EvalResult, VerdictRecord } from "../../engine/report"; // (not "../report": the lint rule reads that as lib/report)
import { AGREEMENT_STATISTICS, type MeasurementLevel } from "../../stats/registry";
import { bootstrapInterval } from "../../stats/bootstrap";
import { krippendorffAlpha } from "../../stats/krippendorff-alpha";
import type { Ratings, StatResult } from "../../stats/result";

// How far the judges of an eval agree with each other, for every criterion or
// category graded by several jurors or panel models. The units are the eval's
// graded cells (matrix cells, repeats); the raters are the judges. Each
// criterion is one row, and "(all criteria)" pools every criterion of every
// cell, which is what a single-cell eval can still say something about.
// The level of measurement follows the scale a person reads: interval for unit
// scores, ordinal for likert and letter grades, nominal for pass / fail and
// for pass / partial / fail categories (Krippendorff 2011).

export type AgreementValue = { value: number } | { value: null; note: string };

export interface JudgeAgreement {
  eval: string;
  /** A criterion or category name, "(rubric)" for a free-form or tree rubric, "(all criteria)" pooled. */
  item: string;
  level: MeasurementLevel;
  judges: string[];
  /** Items rated by at least two judges. */
  units: number;
  exactAgreement: AgreementValue;
  krippendorffAlpha: AgreementValue & { ci95?: { low: number; high: number } };
  /** For categorical scales (every level but interval scores). */
  fleissKappa?: AgreementValue;
}

const POOLED = "(all criteria)";
const RUBRIC = "(rubric)";

function levelOf(scale: Scale, review: boolean): MeasurementLevel {
  if (review || scale.kind === "boolean") return "nominal";
  return scale.kind === "unit" ? "interval" : "ordinal";
}

/** A judge's rating in the scale's own values, so ordinal and nominal statistics see the categories a person sees. */
function ratingOf(input: { score: number; scale: Scale; threshold: number; guard: boolean }): number {
  const { score, scale } = input;
  if (scale.kind === "likert") return Math.round(scale.min + score * (scale.max - scale.min));
  if (scale.kind === "boolean") return (input.guard ? 1 - score : score) >= input.threshold - 1e-9 ? 1 : 0;
  if (scale.kind === "letter") return [0.9, 0.8, 0.7, 0.6].filter((floor) => score >= floor - 1e-9).length;
  return score;
}

const asValue = (result: StatResult): AgreementValue => (result.ok ? { value: result.value } : { value: null, note: result.reason });

type Unit = Map<string, number>;

function measure(input: { eval: string; item: string; level: MeasurementLevel; units: Unit[] }): JudgeAgreement | undefined {
  const units = input.units.filter((u) => u.size >= 2);
  if (units.length === 0) return undefined;
  const judges = [...new Set(units.flatMap((u) => [...u.keys()]))].sort();
  const ratings: Ratings<number> = units.map((u) => judges.map((j) => u.get(j) ?? null));
  const compute = (name: keyof typeof AGREEMENT_STATISTICS) => AGREEMENT_STATISTICS[name].compute({ ratings, level: input.level });
  const alpha = asValue(compute("krippendorff_alpha"));
  const ci = alpha.value === null ? undefined : bootstrapInterval({ units: ratings, statistic: (sample) => krippendorffAlpha({ ratings: sample, level: input.level }) });
  return {
    eval: input.eval,
    item: input.item,
    level: input.level,
    judges,
    units: units.length,
    exactAgreement: asValue(compute("exact_agreement")),
    krippendorffAlpha: { ...alpha, ...(ci ? { ci95: { low: ci.low, high: ci.high } } : {}) },
    ...(input.level !== "interval" ? { fleissKappa: asValue(AGREEMENT_STATISTICS.fleiss_kappa.compute({ ratings, level: "nominal" })) } : {}),
  };
}

function unitOf(verdicts: VerdictRecord[], rate: (score: number) => number): Unit {
  const unit: Unit = new Map();
  for (const v of verdicts) if (v.score !== null) unit.set(v.judge, rate(v.score));
  return unit;
}

export function judgeAgreement(results: EvalResult[]): JudgeAgreement[] {
  // A comparison's trust measure is its position bias, not agreement on win rates.
  const graded = results.filter((r) => (r.status === "passed" || r.status === "failed") && !r.pairwise && new Set(r.judges.map((j) => j.judge)).size >= 2);
  const evals = [...new Set(graded.map((r) => r.eval))];
  return evals.flatMap((name) => {
    const cells = graded.filter((r) => r.eval === name);
    const first = cells[0]!;
    const review = first.review !== undefined;
    const level = levelOf(first.scale, review);
    const out: JudgeAgreement[] = [];
    if (first.criteria.length === 0) {
      // Free-form and tree rubrics: each judge's score for the whole rubric.
      const units = cells.map((r) => {
        const unit: Unit = new Map();
        for (const j of r.judges) if (j.score !== null) unit.set(j.judge, ratingOf({ score: j.score, scale: r.scale, threshold: r.threshold, guard: false }));
        return unit;
      });
      const one = measure({ eval: name, item: RUBRIC, level, units });
      return one ? [one] : [];
    }
    const names = [...new Set(cells.flatMap((r) => r.criteria.map((c) => c.name)))];
    const pooled: Unit[] = [];
    for (const item of names) {
      const units = cells.flatMap((r) => {
        const c = r.criteria.find((x) => x.name === item);
        if (!c || c.status !== "graded") return [];
        // Review verdicts are already points (pass 1, partial 0.5, fail 0): nominal codes.
        return [unitOf(c.verdicts, (score) => (review ? score : ratingOf({ score, scale: r.scale, threshold: c.threshold, guard: c.guard })))];
      });
      pooled.push(...units);
      const one = measure({ eval: name, item, level, units });
      if (one) out.push(one);
    }
    if (names.length > 1) {
      const all = measure({ eval: name, item: POOLED, level, units: pooled });
      if (all) out.push(all);
    }
    return out;
  });
}
