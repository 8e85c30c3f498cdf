import { describe, expect, it } from "vitest";
import { fleissKappa, fleissKappaFromCounts } from "../../lib/stats/fleiss-kappa";
import { cohenKappa, cohenKappaFromTable } from "../../lib/stats/cohen-kappa";
import { exactAgreement } from "../../lib/stats/exact-agreement";

// Published values, not numbers this code produced.

describe("Fleiss' kappa", () => {
  // Fleiss (1971), Table 1: 30 patients, 6 psychiatrists, 5 diagnoses
  // (1 depression, 2 personality disorder, 3 schizophrenia, 4 neurosis, 5 other),
  // as reproduced in R's irr package (data "diagnoses"); kappam.fleiss gives 0.430 (0.4302445).
  const diagnoses = [
    [4, 4, 4, 4, 4, 4],
    [2, 2, 2, 5, 5, 5],
    [2, 3, 3, 3, 3, 5],
    [5, 5, 5, 5, 5, 5],
    [2, 2, 2, 4, 4, 4],
    [1, 1, 3, 3, 3, 3],
    [3, 3, 3, 3, 5, 5],
    [1, 1, 3, 3, 3, 4],
    [1, 1, 4, 4, 4, 4],
    [5, 5, 5, 5, 5, 5],
    [1, 4, 4, 4, 4, 4],
    [1, 2, 4, 4, 4, 4],
    [2, 2, 2, 3, 3, 3],
    [1, 4, 4, 4, 4, 4],
    [2, 2, 4, 4, 4, 5],
    [3, 3, 3, 3, 3, 5],
    [1, 1, 1, 4, 5, 5],
    [1, 1, 1, 1, 1, 2],
    [2, 2, 4, 4, 4, 4],
    [1, 3, 3, 5, 5, 5],
    [5, 5, 5, 5, 5, 5],
    [2, 4, 4, 4, 4, 4],
    [2, 2, 4, 5, 5, 5],
    [1, 1, 4, 4, 4, 4],
    [1, 4, 4, 4, 4, 5],
    [2, 2, 2, 2, 2, 4],
    [1, 1, 1, 1, 5, 5],
    [2, 2, 4, 4, 4, 4],
    [1, 3, 3, 3, 3, 3],
    [5, 5, 5, 5, 5, 5],
  ];

  it("Fleiss (1971) psychiatric diagnoses: 0.430", () => {
    const r = fleissKappa(diagnoses);
    expect(r.ok && r.value).toBeCloseTo(0.4302445, 7);
  });

  it("Wikipedia's worked example (10 subjects, 14 raters, 5 categories): P = 0.378, Pe = 0.213, kappa = 0.210", () => {
    const table = [
      [0, 0, 0, 0, 14],
      [0, 2, 6, 4, 2],
      [0, 0, 3, 5, 6],
      [0, 3, 9, 2, 0],
      [2, 2, 8, 1, 1],
      [7, 7, 0, 0, 0],
      [3, 2, 6, 3, 0],
      [2, 5, 3, 2, 2],
      [6, 5, 2, 1, 0],
      [0, 2, 2, 3, 7],
    ];
    const r = fleissKappaFromCounts(table);
    expect(r.ok && r.value).toBeCloseTo(0.21, 3);
  });

  it("is undefined, with a reason, when units have different numbers of ratings", () => {
    expect(
      fleissKappa([
        ["a", "a"],
        ["a", null],
      ]).ok,
    ).toBe(false);
  });
});

describe("Cohen's kappa, unweighted and weighted", () => {
  // SAS PROC FREQ's agreement example as printed in statsmodels' tests:
  // simple kappa 0.4842, weighted kappa (Cicchetti-Allison, i.e. linear weights) 0.4701.
  const sas = [
    [0, 4, 1],
    [0, 8, 0],
    [0, 1, 5],
  ];
  it("SAS example: simple 0.4842, linear-weighted 0.4701", () => {
    const simple = cohenKappaFromTable({ table: sas, weights: "unweighted" });
    const linear = cohenKappaFromTable({ table: sas, weights: "linear" });
    expect(simple.ok && simple.value).toBeCloseTo(0.4842, 4);
    expect(linear.ok && linear.value).toBeCloseTo(0.4701, 4);
  });

  // R irr's "anxiety" data (20 subjects, raters 2 and 3, levels 1,2,3,4,6):
  // kappa2 gives unweighted -0.006289308, "equal" (linear) 0.1459075, "squared" (quadratic) 0.2520325.
  const rater2 = [3, 6, 4, 6, 2, 4, 2, 4, 3, 3, 2, 3, 3, 3, 2, 2, 1, 3, 3, 4];
  const rater3 = [2, 1, 4, 4, 3, 2, 1, 6, 1, 1, 1, 2, 3, 3, 1, 1, 3, 3, 2, 2];
  const pairs = rater2.map((a, i): [number, number] => [a, rater3[i]!]);
  const categories = [1, 2, 3, 4, 6];

  it("R irr anxiety data: unweighted -0.0063, linear 0.1459, quadratic 0.2520", () => {
    const value = (weights: "unweighted" | "linear" | "quadratic") => {
      const r = cohenKappa({ pairs, categories, weights });
      if (!r.ok) throw new Error(r.reason);
      return r.value;
    };
    expect(value("unweighted")).toBeCloseTo(-0.006289308, 7);
    expect(value("linear")).toBeCloseTo(0.1459075, 7);
    expect(value("quadratic")).toBeCloseTo(0.2520325, 7);
  });

  // Wikipedia, "Cohen's kappa": 50 proposals, yes/yes 20, yes/no 5, no/yes 10, no/no 15 -> kappa = 0.4.
  it("Wikipedia's grant-proposal example: 0.4", () => {
    const r = cohenKappaFromTable({
      table: [
        [20, 5],
        [10, 15],
      ],
      weights: "unweighted",
    });
    expect(r.ok && r.value).toBeCloseTo(0.4, 10);
  });
});

describe("exact agreement", () => {
  it("counts the units on which every rater agreed, ignoring units rated once", () => {
    expect(
      exactAgreement([
        ["pass", "pass", "pass"],
        ["pass", "fail", "pass"],
        ["fail", null, "fail"],
        ["pass", null, null],
      ]),
    ).toEqual({ ok: true, value: 2 / 3 });
  });
});
