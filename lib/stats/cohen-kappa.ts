import { stat, undefinedStat, type StatResult } from "./result";

// Cohen's kappa for two raters (Cohen 1960), and weighted kappa (Cohen 1968)
// with linear or quadratic disagreement weights over ordered categories:
//   kappa_w = 1 - sum w_ij o_ij / sum w_ij e_ij,  e_ij = row_i col_j / N
// with w_ij = [i != j] (unweighted), |i - j| (linear) or (i - j)^2 (quadratic).

export type KappaWeights = "unweighted" | "linear" | "quadratic";

function weight(kind: KappaWeights, i: number, j: number): number {
  if (kind === "unweighted") return i === j ? 0 : 1;
  return kind === "linear" ? Math.abs(i - j) : (i - j) ** 2;
}

/** From a square table: rows the first rater's category, columns the second's, in category order. */
export function cohenKappaFromTable(input: {
  table: number[][];
  weights: KappaWeights;
}): StatResult {
  const { table, weights } = input;
  const k = table.length;
  const total = table.reduce((s, row) => s + row.reduce((a, b) => a + b, 0), 0);
  if (total === 0) return undefinedStat("no pairs of ratings");
  const rows = table.map((row) => row.reduce((a, b) => a + b, 0));
  const cols = table[0]!.map((_, j) => table.reduce((s, row) => s + row[j]!, 0));
  let observed = 0;
  let expected = 0;
  for (let i = 0; i < k; i++) {
    for (let j = 0; j < k; j++) {
      const w = weight(weights, i, j);
      observed += w * table[i]![j]!;
      expected += (w * rows[i]! * cols[j]!) / total;
    }
  }
  if (expected === 0)
    return undefinedStat(
      "both raters used a single category, so agreement cannot be told from chance",
    );
  return stat(1 - observed / expected);
}

/** The confusion table of paired ratings over the given categories (in order). */
export function confusionTable<T>(input: { pairs: [T, T][]; categories: T[] }): number[][] {
  const index = new Map(input.categories.map((c, i) => [c, i]));
  const table = input.categories.map(() => input.categories.map(() => 0));
  for (const [a, b] of input.pairs) {
    const i = index.get(a);
    const j = index.get(b);
    if (i !== undefined && j !== undefined) table[i]![j]!++;
  }
  return table;
}

export function cohenKappa<T>(input: {
  pairs: [T, T][];
  categories: T[];
  weights: KappaWeights;
}): StatResult {
  return cohenKappaFromTable({ table: confusionTable(input), weights: input.weights });
}
