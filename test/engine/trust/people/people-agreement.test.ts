import { describe, expect, it } from "vitest";
import {
  offeredTwice,
  peopleAgreement,
  type PersonLabel,
} from "../../../../lib/engine/trust/people/people-agreement";

// Agreement between two people on the items both labelled, against values
// worked by hand from Krippendorff's coincidence matrix:
//   alpha = 1 - (n - 1) * sum o_ck d(c,k) / sum n_c n_k d(c,k)

const pairs = (
  criterion: string,
  scale: string,
  answers: [string, string][],
  score?: (v: string) => number | null,
): PersonLabel[] =>
  answers.flatMap(([a, b], i) => [
    {
      itemId: `i${i}`,
      evalName: "e",
      criterion,
      reviewer: "ana",
      scale,
      value: a,
      score: score ? score(a) : null,
    },
    {
      itemId: `i${i}`,
      evalName: "e",
      criterion,
      reviewer: "ben",
      scale,
      value: b,
      score: score ? score(b) : null,
    },
  ]);

describe("peopleAgreement", () => {
  it("categories (nominal): pass/pass, pass/fail, fail/fail, pass/pass gives alpha 16/30 and exact 3/4", () => {
    // o_pp = 4, o_pf = o_fp = 1, o_ff = 2; n_p = 5, n_f = 3, n = 8: alpha = 1 - 7 * 2 / (2 * 5 * 3) = 16/30.
    const [row] = peopleAgreement(
      pairs("goal", "category", [
        ["pass", "pass"],
        ["pass", "fail"],
        ["fail", "fail"],
        ["pass", "pass"],
      ]),
    );
    expect(row).toMatchObject({ eval: "e", item: "goal", level: "nominal", units: 4, exact: 0.75 });
    expect(row!.alpha.value).toBeCloseTo(16 / 30, 10);
    expect(row!.alpha.ci95!.low).toBeLessThanOrEqual(row!.alpha.value!);
    expect(row!.alpha.ci95!.high).toBeLessThanOrEqual(1);
  });

  it("a pair's winner counts as a categorical rating: A/A, A/B, B/B, tie/tie gives alpha 2/3", () => {
    // n_A = 3, n_B = 3, n_tie = 2, n = 8; observed 2; expected 2 * (9 + 6 + 6) = 42: alpha = 1 - 7 * 2 / 42.
    const [row] = peopleAgreement(
      pairs("n1", "pairwise", [
        ["A", "A"],
        ["A", "B"],
        ["B", "B"],
        ["tie", "tie"],
      ]),
    );
    expect(row).toMatchObject({ level: "nominal", units: 4, exact: 0.75 });
    expect(row!.alpha.value).toBeCloseTo(2 / 3, 10);
  });

  it("scores (interval, on 0..1): 1 / 0.5 and 0 / 0 gives alpha 1 - 1.5 / 5.5", () => {
    // o(1,.5) = o(.5,1) = 1, o(0,0) = 2; n = 4; observed 2 * 0.25; expected 2 * (0.25 + 2 + 0.5) = 5.5.
    const [row] = peopleAgreement(
      pairs(
        "accurate",
        "unit",
        [
          ["1.00", "0.50"],
          ["0.00", "0.00"],
        ],
        Number,
      ),
    );
    expect(row).toMatchObject({ level: "interval", units: 2, exact: 0.5 });
    expect(row!.alpha.value).toBeCloseTo(1 - 1.5 / 5.5, 10);
  });

  it("counts only items two different people labelled, each person's first label", () => {
    const labels: PersonLabel[] = [
      ...pairs("goal", "category", [["pass", "fail"]]),
      {
        itemId: "i0",
        evalName: "e",
        criterion: "goal",
        reviewer: "ana",
        scale: "category",
        value: "fail",
        score: 0,
      },
      {
        itemId: "alone",
        evalName: "e",
        criterion: "goal",
        reviewer: "cy",
        scale: "category",
        value: "pass",
        score: 1,
      },
    ];
    const [row] = peopleAgreement(labels);
    expect(row).toMatchObject({ units: 1, exact: 0 });
    expect(peopleAgreement([labels[3]!])).toEqual([]);
  });

  it("says why alpha is undefined when every answer is the same", () => {
    const [row] = peopleAgreement(pairs("goal", "category", [["pass", "pass"]]));
    expect(row!.alpha).toEqual({
      value: null,
      note: expect.stringContaining("every rating is the same"),
    });
  });
});

describe("offeredTwice", () => {
  it("offers none at 0, all at 1, and about the rate's share in between, the same keys every time", () => {
    const keys = Array.from(
      { length: 2000 },
      (_, i) => `run\u0000result-${i}\u0000accurate\u0000judges_split`,
    );
    expect(keys.filter((k) => offeredTwice(k, 0))).toEqual([]);
    expect(keys.filter((k) => offeredTwice(k, 1))).toHaveLength(2000);
    const tenth = keys.filter((k) => offeredTwice(k, 0.1));
    expect(tenth.length).toBeGreaterThan(150);
    expect(tenth.length).toBeLessThan(250);
    expect(keys.filter((k) => offeredTwice(k, 0.1))).toEqual(tenth);
  });
});
