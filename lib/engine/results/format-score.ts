import { formatCount } from "../../config/limits";
import type { Scale } from "../../config/types";

const LETTERS: [number, string][] = [
  [0.9, "A"],
  [0.8, "B"],
  [0.7, "C"],
  [0.6, "D"],
];

/**
 * The score as a person reads it in the rubric's scale. The 0..1 value that
 * gates and every machine reporter use is never changed by this.
 */
export function formatScore(input: {
  score: number | null;
  scale: Scale;
  passed?: boolean;
}): string {
  const { score, scale } = input;
  if (score === null) return "–";
  switch (scale.kind) {
    case "unit":
      return score.toFixed(2);
    case "likert":
      return `${(scale.min + score * (scale.max - scale.min)).toFixed(1)}/${scale.max}`;
    case "boolean":
      return (input.passed ?? score >= 0.5) ? "pass" : "fail";
    case "letter":
      return LETTERS.find(([floor]) => score >= floor - 1e-9)?.[1] ?? "F";
  }
}

/**
 * Why a score passed or failed its threshold, in the scale the rubric was written in: a
 * letter rubric reads "grade A ≥ threshold C" beside its "A / C", a likert one
 * "score 4.0/5 ≥ threshold 3.8/5". When both read the same on the scale (0.85 and 0.87
 * are both B), the 0..1 values that decided are added. Unit and boolean scales compare the
 * 0..1 values themselves ("score 0.72 ≥ threshold 0.70").
 */
export function thresholdReason(input: { score: number; threshold: number; scale: Scale }): string {
  const { score, threshold, scale } = input;
  const sign = score >= threshold - 1e-9 ? "≥" : "<";
  if (scale.kind === "unit" || scale.kind === "boolean")
    return `score ${score.toFixed(2)} ${sign} threshold ${threshold.toFixed(2)}`;
  const shown = formatScore({ score, scale });
  const bar = formatScore({ score: threshold, scale, passed: true });
  const word = scale.kind === "letter" ? "grade" : "score";
  return `${word} ${shown} ${sign} threshold ${bar}${shown === bar ? ` (${score.toFixed(2)} ${sign} ${threshold.toFixed(2)})` : ""}`;
}

/**
 * The project's one money format (CLI lines, reports, dashboard): four
 * decimals under $1, so a cheap judge call does not read as free and amounts
 * side by side never read at mixed precision ($0.01 beside $0.0062); two from
 * $1. Zero is exactly "$0" (no precision to show: "$0 of $0.1000 used", not
 * "$0.00 of $0.1000"), a positive amount below a hundredth of a cent "<$0.0001".
 */
export function formatUsd(usd: number): string {
  if (!Number.isFinite(usd)) return "$?";
  if (usd === 0) return "$0";
  if (Math.abs(usd) < 0.0001) return "<$0.0001";
  return Math.abs(usd) < 1 ? `$${usd.toFixed(4)}` : `$${usd.toFixed(2)}`;
}

/** "1 result", "2 results": a count with its noun agreed (`many` for irregular plurals, e.g. "criteria"). */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${Number.isInteger(count) ? formatCount(count) : count.toLocaleString("en-US")} ${count === 1 ? one : many}`;
}
