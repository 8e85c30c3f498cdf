import { formatScore } from "../engine/results/format-score";
import type { EvalResult } from "../engine/results/report";
import { displayWidth } from "./display-width";
import { stripControl } from "./escape";

// The pretty report's score and threshold columns. Written as results come, its lines only line
// up if the columns are as wide as the widest value of the run from the first line: a likert
// 0–100 rubric's "100.0/100" and "threshold 95.0/100" beside a unit rubric's "0.90" and
// "threshold 0.70" (and a letter's "threshold C"). Every rubric's scale and threshold is known
// before the run, so the widths are too; a comparison's or review's line (win rates, a decision)
// is said in its own section and does not widen them.

export interface ScaleColumns {
  score: number;
  threshold: number;
}

/** At least "  0.90" and "threshold 0.70". */
export const MIN_SCALE_COLUMNS: ScaleColumns = { score: 6, threshold: "threshold 0.70".length };

type Scaled = Pick<EvalResult, "scale" | "threshold">;

export const thresholdText = (display: string) => stripControl(`threshold ${display}`);

function scaledWidths({ scale, threshold }: Scaled): ScaleColumns {
  const at = (score: number) => displayWidth(formatScore({ score, scale, passed: true }));
  return {
    score: Math.max(at(0), at(1)),
    threshold: displayWidth(thresholdText(formatScore({ score: threshold, scale, passed: true }))),
  };
}

/** The columns for rubrics of these scales and thresholds (each eval's, before the run). */
export function scaleColumns(rubrics: Iterable<Scaled>): ScaleColumns {
  const columns = { ...MIN_SCALE_COLUMNS };
  for (const rubric of rubrics) widen(columns, scaledWidths(rubric));
  return columns;
}

/** Widens `columns` (in place) to hold a result's own score and threshold, as it comes. */
export function widenForResult(columns: ScaleColumns, result: EvalResult): void {
  if (result.review || result.pairwise) return;
  widen(columns, {
    score: displayWidth(stripControl(result.display)),
    threshold: displayWidth(thresholdText(result.thresholdDisplay)),
  });
}

function widen(columns: ScaleColumns, by: ScaleColumns): void {
  columns.score = Math.max(columns.score, by.score);
  columns.threshold = Math.max(columns.threshold, by.threshold);
}
