import { SAME_RATINGS, stat, undefinedStat, type Ratings, type StatResult } from "./result";

// Fleiss' kappa (Fleiss 1971, "Measuring nominal scale agreement among many
// raters"): every unit rated by the same number of raters into nominal
// categories.
//   P_i = (sum_j n_ij^2 - n) / (n (n - 1)),  p_j = sum_i n_ij / (N n)
//   kappa = (mean P_i - sum p_j^2) / (1 - sum p_j^2)

/** From a table of counts: one row per unit, one column per category. */
export function fleissKappaFromCounts(table: number[][]): StatResult {
  if (table.length === 0) return undefinedStat("no units");
  const n = table[0]!.reduce((a, b) => a + b, 0);
  if (n < 2) return undefinedStat("each unit needs at least two ratings");
  if (table.some((row) => row.reduce((a, b) => a + b, 0) !== n))
    return undefinedStat("Fleiss' kappa needs the same number of ratings for every unit");
  const units = table.length;
  const categories = table[0]!.length;
  const meanP =
    table.reduce((sum, row) => sum + (row.reduce((s, x) => s + x * x, 0) - n) / (n * (n - 1)), 0) /
    units;
  let expected = 0;
  for (let j = 0; j < categories; j++) {
    const p = table.reduce((s, row) => s + row[j]!, 0) / (units * n);
    expected += p * p;
  }
  if (expected === 1) return undefinedStat(SAME_RATINGS);
  return stat((meanP - expected) / (1 - expected));
}

/** From raw ratings (any labels); units with a missing rating make it undefined. */
export function fleissKappa(ratings: Ratings<string | number>): StatResult {
  if (ratings.some((unit) => unit.some((v) => v === null)))
    return undefinedStat("Fleiss' kappa needs every rater to rate every unit");
  const labels = [...new Set(ratings.flat())];
  return fleissKappaFromCounts(
    ratings.map((unit) => labels.map((label) => unit.filter((v) => v === label).length)),
  );
}
