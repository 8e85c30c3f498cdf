// Numbers as people read them in the machine formats (json, ndjson, tap): a
// score of 0.7 is written 0.7, not 0.7000000000000001. Scores, thresholds
// and the like keep 4 decimals, as the grades are read; every other fraction
// (costs of a fraction of a cent, durations) keeps 12 significant digits,
// which drops only floating-point noise. The report object itself, and what
// the store keeps, stay at full precision: only what is written is rounded.

/** Keys whose numbers are unit scores, thresholds or rates: 4 decimals. */
const SCORE_KEYS = new Set([
  "score",
  "threshold",
  "aggregate",
  "raw",
  "rate",
  "mean",
  "median",
  "mae",
  "delta",
  "baselineScore",
  "maxDrop",
  "consensus",
  "judged",
  "label",
  "confidence",
  "kappa",
  "alpha",
  "winRate",
  "low",
  "high",
  "margin",
  "agreement",
  // An agreement statistic's number ({ value } of exact agreement, alpha, kappa).
  "value",
]);

/** Any other rate by its name: win_rate_a, tie_rate, passRate, flipRate... */
const RATE_KEY = /(^|_)rate(_|$)|Rate$/;

export function tidyNumber(value: number, key?: string): number {
  if (!Number.isFinite(value) || Number.isInteger(value)) return value;
  if (key !== undefined && (SCORE_KEYS.has(key) || RATE_KEY.test(key)))
    return Math.round(value * 1e4) / 1e4;
  return Number(value.toPrecision(12));
}

/** A deep copy with every number tidied by the key it sits under (array items take their array's key). */
export function tidyNumbers<T>(value: T, key?: string): T {
  if (typeof value === "number") return tidyNumber(value, key) as T;
  if (Array.isArray(value)) return value.map((item) => tidyNumbers(item, key)) as T;
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>).map(([k, inner]) => [
      k,
      tidyNumbers(inner, k),
    ]),
  ) as T;
}
