import type { Scale } from "../../../config/types";
import { bootstrapInterval } from "../../../stats/bootstrap";
import { cohenKappa } from "../../../stats/cohen-kappa";
import { calibrateItem, categoriesOf, DEFAULT_TOLERANCE } from "../calibration/calibration-stats";
import type { EvalResult } from "../../results/report";
import type {
  CalibrationItem,
  CalibrationResult,
  CalibrationScale,
  CriterionCalibration,
} from "../../results/trust";
import { ZERO_USAGE } from "../../ports/judge-port";
import { DECISION_ITEM } from "./needs-person";

// People as raters: each stored label set beside what the judges said about
// the same criterion of the same result, as a calibration (MAE, Cohen's κ, the
// confusion matrix, outliers), so the calibration view reads the judge against
// people's labels the way it reads it against the suite's anchors.

export interface StoredLabel {
  id: string;
  evalName: string;
  criterion: string;
  reviewer: string;
  candidate: string;
  /** The label's 0..1 value; null for a pairwise winner (not on a score scale). */
  score: number | null;
}

const DECISION_SCORES: Record<string, number> = { pass: 1, conditional: 0.5, fail: 0 };

/** What the judges gave the labelled criterion of a result: its 0..1 score, the threshold, the scale, and why. */
export function judgedOf(
  result: EvalResult,
  criterion: string,
):
  | {
      judged: number | null;
      threshold: number;
      scale: CalibrationScale;
      likert?: { min: number; max: number };
      reasoning: string;
    }
  | undefined {
  if (result.pairwise) return undefined;
  if (result.review) {
    const report = result.review.report;
    if (criterion === DECISION_ITEM)
      return {
        judged: DECISION_SCORES[report.decision.status] ?? null,
        threshold: 0.75,
        scale: "categorical",
        reasoning: report.decision.rationale,
      };
    // A category's row among the result's criteria, scored 1 / 0.5 / 0 (pass / partial / fail).
    const row = result.criteria.find((c) => c.name === criterion);
    return row
      ? { judged: row.score, threshold: 0.75, scale: "categorical", reasoning: row.reasoning }
      : undefined;
  }
  const scale: Scale = result.scale;
  const own =
    scale.kind === "likert"
      ? { scale: "likert" as const, likert: { min: scale.min, max: scale.max } }
      : { scale: scale.kind };
  const found = result.criteria.find((c) => c.name === criterion);
  if (found)
    return {
      judged: found.score,
      threshold: found.threshold,
      ...own,
      reasoning: found.reasoning || (found.combined?.summary ?? ""),
    };
  return criterion === "(rubric)"
    ? { judged: result.score, threshold: result.threshold, ...own, reasoning: result.reason }
    : undefined;
}

/** People's labels against the judges, per eval and criterion; labels whose result is gone, or pairwise winners, are left out. */
export function humanCalibration(input: {
  labels: { label: StoredLabel; result: EvalResult | undefined }[];
  tolerance?: number;
}): CalibrationResult {
  const tolerance = input.tolerance ?? DEFAULT_TOLERANCE;
  const groups = new Map<
    string,
    {
      eval: string;
      item: string;
      scale: CalibrationScale;
      likert?: { min: number; max: number };
      threshold: number;
      items: CalibrationItem[];
    }
  >();
  for (const { label, result } of input.labels) {
    if (label.score === null || !result) continue;
    const judged = judgedOf(result, label.criterion);
    if (!judged) continue;
    const key = `${label.evalName}\u0000${label.criterion}`;
    const group = groups.get(key) ?? {
      eval: label.evalName,
      item: label.criterion,
      scale: judged.scale,
      ...(judged.likert ? { likert: judged.likert } : {}),
      threshold: judged.threshold,
      items: [],
    };
    const error = judged.judged === null ? null : judged.judged - label.score;
    group.items.push({
      id: label.id.slice(0, 8),
      source: "person",
      annotator: label.reviewer,
      label: label.score,
      judged: judged.judged,
      error,
      outlier: error !== null && Math.abs(error) > tolerance + 1e-9,
      reasoning: judged.reasoning,
      text: label.candidate,
    });
    groups.set(key, group);
  }
  const criteria: CriterionCalibration[] = [...groups.values()].map((g) => {
    const calibration = calibrateItem({
      eval: g.eval,
      item: g.item,
      scale: g.scale,
      ...(g.likert ? { likert: g.likert } : {}),
      threshold: g.threshold,
      items: g.items,
    });
    // κ's 95% interval: the labelled items resampled (a few labels make a wide one, which is the point of showing it).
    const { names, of } = categoriesOf(g.scale, g.likert);
    const graded = g.items.filter((i) => i.judged !== null);
    // No interval for a κ that is undefined on the labels themselves (too few, no variance).
    if (calibration.kappa.value === null) return calibration;
    const ci = bootstrapInterval({
      units: graded,
      statistic: (units) =>
        cohenKappa({
          pairs: units.map((i): [string, string] => [
            of(i.label, g.threshold),
            of(i.judged!, g.threshold),
          ]),
          categories: names,
          weights: calibration.kappa.weights,
        }),
    });
    return ci
      ? { ...calibration, kappa: { ...calibration.kappa, ci95: { low: ci.low, high: ci.high } } }
      : calibration;
  });
  return {
    tolerance,
    criteria,
    overMaxError: [],
    probes: criteria.reduce((n, c) => n + c.items.length, 0),
    ungraded: criteria.reduce((n, c) => n + c.items.length - c.graded, 0),
    judgeCalls: 0,
    costUsd: 0,
    usage: ZERO_USAGE,
  };
}
