import { SAME_RATINGS, stat, undefinedStat, type Ratings, type StatResult } from "./result";

// Krippendorff's alpha by the coincidence-matrix method of Krippendorff (2011),
// "Computing Krippendorff's Alpha-Reliability": any number of raters, missing
// ratings allowed, and a distance per level of measurement.
//   o_ck  = sum over units of (pairs of values c, k in the unit) / (m_u - 1)
//   alpha = 1 - (n - 1) * sum o_ck d(c,k) / sum n_c n_k d(c,k)

export type MeasurementLevel = "nominal" | "ordinal" | "interval";

interface Coincidences {
  values: number[];
  o: number[][];
  n: number[];
  total: number;
}

function coincidences(ratings: Ratings<number>): Coincidences {
  const values = [...new Set(ratings.flat().filter((v): v is number => v !== null))].sort(
    (a, b) => a - b,
  );
  const index = new Map(values.map((v, i) => [v, i]));
  const o = values.map(() => values.map(() => 0));
  for (const unit of ratings) {
    const present = unit.filter((v): v is number => v !== null);
    const m = present.length;
    if (m < 2) continue; // a unit rated once has no pairable value
    for (let i = 0; i < m; i++) {
      for (let j = 0; j < m; j++) {
        if (i !== j) o[index.get(present[i]!)!]![index.get(present[j]!)!]! += 1 / (m - 1);
      }
    }
  }
  const n = o.map((row) => row.reduce((a, b) => a + b, 0));
  return { values, o, n, total: n.reduce((a, b) => a + b, 0) };
}

function distance(level: MeasurementLevel, c: Coincidences): (i: number, k: number) => number {
  if (level === "nominal") return (i, k) => (i === k ? 0 : 1);
  if (level === "interval") return (i, k) => (c.values[i]! - c.values[k]!) ** 2;
  // Ordinal: the values between c and k, counted by how often they occur.
  return (i, k) => {
    const [lo, hi] = i < k ? [i, k] : [k, i];
    let sum = 0;
    for (let g = lo; g <= hi; g++) sum += c.n[g]!;
    return (sum - (c.n[lo]! + c.n[hi]!) / 2) ** 2;
  };
}

/** Alpha from a coincidence matrix (the formula at the top of this file). */
function alphaOf(level: MeasurementLevel, c: Coincidences): StatResult {
  if (c.total === 0) return undefinedStat("no unit has two ratings to compare");
  const d = distance(level, c);
  let observed = 0;
  let expected = 0;
  for (let i = 0; i < c.values.length; i++) {
    for (let k = 0; k < c.values.length; k++) {
      const delta = d(i, k);
      observed += c.o[i]![k]! * delta;
      expected += c.n[i]! * c.n[k]! * delta;
    }
  }
  if (expected === 0) return undefinedStat(SAME_RATINGS);
  return stat(1 - ((c.total - 1) * observed) / expected);
}

export function krippendorffAlpha(input: {
  ratings: Ratings<number>;
  level: MeasurementLevel;
}): StatResult {
  return alphaOf(input.level, coincidences(input.ratings));
}

/**
 * Alpha of resamples of `ratings`' units (a bootstrap): each unit's pairable values are indexed
 * once, against every value the units hold, so a resample only adds up its units' coincidences
 * (a few additions per unit) instead of finding, sorting and indexing its values again. A value
 * no resampled unit holds is a row and column of zeros, which add nothing to any sum, so each
 * resample's alpha is `krippendorffAlpha` of that resample to the bit (test/stats holds them
 * together). A sample may hold only units of `ratings` (by identity); others are computed whole.
 */
export function resampledAlpha(input: {
  ratings: Ratings<number>;
  level: MeasurementLevel;
}): (sample: Ratings<number>) => StatResult {
  const values = [...new Set(input.ratings.flat().filter((v): v is number => v !== null))].sort(
    (a, b) => a - b,
  );
  const index = new Map(values.map((v, i) => [v, i]));
  // Per unit: its coincidence pairs in coincidences()'s order, as (row, column) flat and 1 / (m - 1).
  const pairsOf = new Map<(number | null)[], { cells: number[]; weight: number }>();
  for (const unit of input.ratings) {
    if (pairsOf.has(unit)) continue;
    const present = unit.filter((v): v is number => v !== null).map((v) => index.get(v)!);
    const m = present.length;
    const cells: number[] = [];
    if (m >= 2)
      for (let i = 0; i < m; i++)
        for (let j = 0; j < m; j++) if (i !== j) cells.push(present[i]!, present[j]!);
    pairsOf.set(unit, { cells, weight: 1 / (m - 1) });
  }
  return (sample) => {
    if (sample.some((unit) => !pairsOf.has(unit)))
      return krippendorffAlpha({ ratings: sample, level: input.level });
    const o = values.map(() => values.map(() => 0));
    for (const unit of sample) {
      const { cells, weight } = pairsOf.get(unit)!;
      for (let p = 0; p < cells.length; p += 2) o[cells[p]!]![cells[p + 1]!]! += weight;
    }
    const n = o.map((row) => row.reduce((a, b) => a + b, 0));
    return alphaOf(input.level, { values, o, n, total: n.reduce((a, b) => a + b, 0) });
  };
}
