import type { StatResult } from "./result";

// A percentile bootstrap confidence interval over units: resample the units
// with replacement, recompute the statistic, take the 2.5th and 97.5th
// percentiles. Seeded, so the same data always gives the same interval in a
// report. (Krippendorff's own bootstrap resamples pairable values instead;
// resampling units is the general, simpler choice and is what we document.)

/** mulberry32: a small, fast, well-spread 32-bit generator. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function percentile(sorted: number[], q: number): number {
  const position = (sorted.length - 1) * q;
  const lo = Math.floor(position);
  const hi = Math.ceil(position);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (position - lo);
}

export function bootstrapInterval<U>(input: {
  units: U[];
  statistic: (units: U[]) => StatResult;
  resamples?: number;
  seed?: number;
  level?: number;
}): { low: number; high: number; resamples: number } | undefined {
  const { units, statistic } = input;
  if (units.length < 2) return undefined;
  const random = seededRandom(input.seed ?? 20110101);
  const level = input.level ?? 0.95;
  const values: number[] = [];
  for (let b = 0; b < (input.resamples ?? 1000); b++) {
    const sample = units.map(() => units[Math.floor(random() * units.length)]!);
    const result = statistic(sample);
    if (result.ok) values.push(result.value);
  }
  // Too many resamples without a defined value (e.g. no variation) make the interval meaningless.
  if (values.length < 0.5 * (input.resamples ?? 1000)) return undefined;
  values.sort((a, b) => a - b);
  return {
    low: percentile(values, (1 - level) / 2),
    high: percentile(values, 1 - (1 - level) / 2),
    resamples: values.length,
  };
}
