import type { Ratings } from "./result";

// Agreement between each two raters, over the units both of them rated: the
// juror × juror matrix of the agreement view. Chance-corrected statistics of a
// pair over a handful of units say little, so each cell reports the plain,
// readable figures: how many units the two share, on how many of them they
// gave the same value, and the mean absolute difference of their values (for
// interval scores, where exact equality is a strict test). A pair with no
// shared unit has null figures rather than NaN.

export interface PairAgreement {
  /** Units both raters rated. */
  units: number;
  /** Units on which both gave exactly the same value. */
  agreed: number;
  /** agreed / units; null when they share no unit. */
  agreement: number | null;
  /** Mean |a − b| over the shared units; null when they share no unit. */
  meanAbsDifference: number | null;
}

/** An n × n matrix (n = raters, the columns of `ratings`); the diagonal compares a rater with itself. */
export function pairwiseAgreement(ratings: Ratings<number>): PairAgreement[][] {
  const raters = ratings.reduce((n, unit) => Math.max(n, unit.length), 0);
  const cell = (a: number, b: number): PairAgreement => {
    let units = 0;
    let agreed = 0;
    let diff = 0;
    for (const unit of ratings) {
      const x = unit[a];
      const y = unit[b];
      if (x === null || x === undefined || y === null || y === undefined) continue;
      units++;
      if (x === y) agreed++;
      diff += Math.abs(x - y);
    }
    return units === 0
      ? { units, agreed, agreement: null, meanAbsDifference: null }
      : { units, agreed, agreement: agreed / units, meanAbsDifference: diff / units };
  };
  return Array.from({ length: raters }, (_, a) =>
    Array.from({ length: raters }, (_, b) => cell(a, b)),
  );
}
