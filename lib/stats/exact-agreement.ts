import { stat, undefinedStat, type Ratings, type StatResult } from "./result";

// Exact agreement: the share of units (with at least two ratings) on which
// every rater gave the same value. The simplest number to read, and the one
// the chance-corrected statistics are measured against.

export function exactAgreement<T>(ratings: Ratings<T>): StatResult {
  const units = ratings
    .map((unit) => unit.filter((v): v is T => v !== null))
    .filter((unit) => unit.length >= 2);
  if (units.length === 0) return undefinedStat("no unit has two ratings to compare");
  return stat(units.filter((unit) => unit.every((v) => v === unit[0])).length / units.length);
}
