// The Wilson score interval for a binomial proportion (Wilson 1927), without
// continuity correction: Newcombe (1998), "Two-sided confidence intervals for
// the single proportion: comparison of seven methods", method 3. It stays
// inside [0, 1] and behaves at 0 and n successes, where the Wald interval fails.

/** z for a two-sided 95% interval. */
export const Z_95 = 1.959963984540054;

export function wilsonInterval(input: {
  successes: number;
  trials: number;
  z?: number;
}): { low: number; high: number } | undefined {
  const { successes, trials } = input;
  if (trials <= 0 || successes < 0 || successes > trials) return undefined;
  const z = input.z ?? Z_95;
  const p = successes / trials;
  const z2 = z * z;
  const centre = (p + z2 / (2 * trials)) / (1 + z2 / trials);
  const half =
    (z / (1 + z2 / trials)) * Math.sqrt((p * (1 - p)) / trials + z2 / (4 * trials * trials));
  return { low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}
