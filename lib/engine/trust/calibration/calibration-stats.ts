import { cohenKappa, confusionTable, type KappaWeights } from "../../../stats/cohen-kappa";
import { likertFits } from "../../../config/limits";
import { undefinedStat, type StatResult } from "../../../stats/result";
import type { CalibrationItem, CalibrationScale, CriterionCalibration } from "../../results/trust";

// Per criterion: judged against labelled, as numbers (MAE, outliers) and as
// the categories a person reads (Cohen's kappa, the confusion matrix):
// quadratic-weighted kappa for ordinal scales (likert points, letter grades,
// unit scores in quarter bands), unweighted for categorical ones (pass / fail,
// pass / partial / fail). A plain data object a page can draw.

/** How far a judged score may sit from the label and still agree (`--tolerance`). */
export const DEFAULT_TOLERANCE = 0.25;

export function categoriesOf(
  scale: CalibrationScale,
  likert?: { min: number; max: number },
): { names: string[]; of: (score: number, threshold: number) => string } {
  // A likert band past the language's bound (stored before it) is read in the unit scale's bands: its matrix would be points².
  const kind = scale === "likert" && !(likert && likertFits(likert)) ? "unit" : scale;
  switch (kind) {
    case "categorical":
      return {
        names: ["fail", "partial", "pass"],
        of: (s) => (s >= 0.75 ? "pass" : s >= 0.25 ? "partial" : "fail"),
      };
    case "boolean":
      return { names: ["fail", "pass"], of: (s, t) => (s >= t - 1e-9 ? "pass" : "fail") };
    case "letter":
      return {
        names: ["F", "D", "C", "B", "A"],
        of: (s) =>
          ["F", "D", "C", "B", "A"][[0.6, 0.7, 0.8, 0.9].filter((f) => s >= f - 1e-9).length]!,
      };
    case "likert": {
      const { min, max } = likert!;
      const names = Array.from({ length: max - min + 1 }, (_, i) => String(min + i));
      return { names, of: (s) => String(Math.round(min + s * (max - min))) };
    }
    case "unit":
      return {
        names: ["0.00", "0.25", "0.50", "0.75", "1.00"],
        of: (s) => (Math.round(s * 4) / 4).toFixed(2),
      };
  }
}

/**
 * Cohen's κ of labelled against judged, undefined (with why) where it says
 * nothing: fewer than two graded items, or one side that used a single
 * category (κ is then 0 or 0/0 whatever the other side did).
 */
function kappaOf(pairs: [string, string][], names: string[], weights: KappaWeights): StatResult {
  if (pairs.length === 0) return undefinedStat("nothing was graded");
  if (pairs.length < 2) return undefinedStat("one graded item is too few: κ needs at least two");
  for (const [side, at] of [
    ["labels", 0],
    ["judges", 1],
  ] as const) {
    const used = new Set(pairs.map((p) => p[at]));
    if (used.size === 1)
      return undefinedStat(
        `no variance: the ${side} put all ${pairs.length} items in one category (${[...used][0]}), so agreement cannot be told from chance`,
      );
  }
  return cohenKappa({ pairs, categories: names, weights });
}

export function calibrateItem(input: {
  eval: string;
  item: string;
  scale: CalibrationScale;
  likert?: { min: number; max: number };
  threshold: number;
  items: CalibrationItem[];
}): CriterionCalibration {
  const { items } = input;
  const graded = items.filter((i) => i.judged !== null);
  const { names, of } = categoriesOf(input.scale, input.likert);
  const pairs = graded.map((i): [string, string] => [
    of(i.label, input.threshold),
    of(i.judged!, input.threshold),
  ]);
  const weights: KappaWeights =
    input.scale === "categorical" || input.scale === "boolean" ? "unweighted" : "quadratic";
  const kappa = kappaOf(pairs, names, weights);
  return {
    eval: input.eval,
    item: input.item,
    scale: input.scale,
    items,
    graded: graded.length,
    mae:
      graded.length > 0
        ? graded.reduce((sum, i) => sum + Math.abs(i.error!), 0) / graded.length
        : null,
    kappa: kappa.ok
      ? { weights, value: kappa.value }
      : { weights, value: null, note: kappa.reason },
    confusion: { categories: names, matrix: confusionTable({ pairs, categories: names }) },
    outliers: items.filter((i) => i.outlier).length,
  };
}
