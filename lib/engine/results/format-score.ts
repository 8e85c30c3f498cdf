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

/** Dollars with enough digits to tell small judge bills apart. */
export function formatUsd(usd: number): string {
  if (usd === 0) return "$0.00";
  if (usd < 0.01) return `$${usd.toFixed(4)}`;
  return `$${usd.toFixed(2)}`;
}

/** "1 result", "2 results": a count with its noun agreed (`many` for irregular plurals, e.g. "criteria"). */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${Number.isInteger(count) ? formatCount(count) : count.toLocaleString("en-US")} ${count === 1 ? one : many}`;
}
