import { stat, undefinedStat, type Ratings, type StatResult } from "./result";

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

export function krippendorffAlpha(input: {
  ratings: Ratings<number>;
  level: MeasurementLevel;
}): StatResult {
  const c = coincidences(input.ratings);
  if (c.total === 0) return undefinedStat("no unit has two ratings to compare");
  const d = distance(input.level, c);
  let observed = 0;
  let expected = 0;
  for (let i = 0; i < c.values.length; i++) {
    for (let k = 0; k < c.values.length; k++) {
      const delta = d(i, k);
      observed += c.o[i]![k]! * delta;
      expected += c.n[i]! * c.n[k]! * delta;
    }
  }
  if (expected === 0)
    return undefinedStat("every rating is the same value, so agreement cannot be told from chance");
  return stat(1 - ((c.total - 1) * observed) / expected);
}
