import { describe, expect, it } from "vitest";
import { pairwiseAgreement } from "../../lib/stats/pairwise-agreement";

// The juror × juror matrix, worked by hand on Krippendorff's (2011) reliability
// data: four observers, twelve units, missing values ("Computing
// Krippendorff's alpha-reliability", the nominal example). Each pair is
// compared over the units both observers rated.

const _ = null;
// Rows are units; columns observers A, B, C, D.
const data = [
  [1, 1, _, 1],
  [2, 2, 3, 2],
  [3, 3, 3, 3],
  [3, 3, 3, 3],
  [2, 2, 2, 2],
  [1, 2, 3, 4],
  [4, 4, 4, 4],
  [1, 1, 2, 1],
  [2, 2, 2, 2],
  [_, 5, 5, 5],
  [_, _, 1, 1],
  [_, 3, _, _],
];

describe("pairwise agreement between raters", () => {
  const m = pairwiseAgreement(data);

  it.each([
    // pair, shared units, agreed, sum of |differences| (worked by hand from the table)
    ["A", "B", 0, 1, 9, 8, 1], // units 1-9; only unit 6 differs (1 vs 2)
    ["A", "C", 0, 2, 8, 5, 4], // units 2-9; units 2 (1), 6 (2), 8 (1)
    ["A", "D", 0, 3, 9, 8, 3], // units 1-9; unit 6 (1 vs 4)
    ["B", "C", 1, 2, 9, 6, 3], // units 2-10; units 2, 6, 8 by one each
    ["B", "D", 1, 3, 10, 9, 2], // units 1-10; unit 6 (2 vs 4)
    ["C", "D", 2, 3, 10, 7, 3], // units 2-11; units 2, 6, 8 by one each
  ])("%s and %s: %#", (_a, _b, i, j, units, agreed, diffSum) => {
    expect(m[i]![j]).toEqual({
      units,
      agreed,
      agreement: agreed / units,
      meanAbsDifference: diffSum / units,
    });
    // The matrix is symmetric.
    expect(m[j]![i]).toEqual(m[i]![j]);
  });

  it("compares a rater with itself on the diagonal: every unit it rated, all agreed", () => {
    expect(m.map((row, i) => row[i]!.units)).toEqual([9, 11, 10, 11]);
    expect(m.every((row, i) => row[i]!.agreement === 1 && row[i]!.meanAbsDifference === 0)).toBe(
      true,
    );
  });

  it("gives null figures, not NaN, for two raters who share no unit", () => {
    const disjoint = pairwiseAgreement([
      [1, null],
      [null, 0],
    ]);
    expect(disjoint[0]![1]).toEqual({
      units: 0,
      agreed: 0,
      agreement: null,
      meanAbsDifference: null,
    });
    expect(pairwiseAgreement([])).toEqual([]);
  });
});
