import { describe, expect, it } from "vitest";
import { krippendorffAlpha, resampledAlpha } from "../../lib/stats/krippendorff-alpha";
import { seededRandom } from "../../lib/stats/bootstrap";
import type { Ratings } from "../../lib/stats/result";

// Published values, not numbers this code produced.

// Krippendorff, K. (2011). "Computing Krippendorff's Alpha-Reliability",
// section C: 4 observers (A-D) x 12 units, values 1..5, with missing data.
// The paper gives alpha = 0.743 (nominal), 0.815 (ordinal), 0.849 (interval).
const _ = null;
const observers = [
  [1, 2, 3, 3, 2, 1, 4, 1, 2, _, _, _],
  [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, _, 3],
  [_, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, _],
  [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, _],
];
const byUnit = (rows: (number | null)[][]): Ratings<number> =>
  rows[0]!.map((_, u) => rows.map((row) => row[u]!));

// Krippendorff (2011), section A: two observers, ten units, binary data: alpha = 0.095.
const binary = [
  [0, 1, 0, 0, 0, 0, 0, 0, 1, 0],
  [1, 1, 1, 0, 0, 1, 0, 0, 0, 0],
];

// Wikipedia, "Krippendorff's alpha", a computational example (3 coders, 15
// units): nominal 0.691, interval 0.811 (0.691358 and 0.810845 to six places,
// as the reference implementation fast-krippendorff also tests).
const wikipedia = [
  [_, _, _, _, _, 3, 4, 1, 2, 1, 1, 3, 3, _, 3],
  [1, _, 2, 1, 3, 3, 4, 3, _, _, _, _, _, _, _],
  [_, _, 2, 1, 3, 4, 4, _, 2, 1, 1, 3, 3, _, 4],
];

describe("Krippendorff's alpha against published worked examples", () => {
  it("Krippendorff (2011), 4 observers x 12 units with missing values: nominal .743, ordinal .815, interval .849", () => {
    const ratings = byUnit(observers);
    const value = (level: "nominal" | "ordinal" | "interval") => {
      const r = krippendorffAlpha({ ratings, level });
      if (!r.ok) throw new Error(r.reason);
      return r.value;
    };
    expect(value("nominal")).toBeCloseTo(0.743, 3);
    expect(value("ordinal")).toBeCloseTo(0.815, 3);
    expect(value("interval")).toBeCloseTo(0.849, 3);
  });

  it("Krippendorff (2011), two observers, binary data: .095", () => {
    const r = krippendorffAlpha({ ratings: byUnit(binary), level: "nominal" });
    expect(r.ok && r.value).toBeCloseTo(0.095, 3);
  });

  it("Wikipedia's computational example: nominal 0.691358, interval 0.810845", () => {
    const nominal = krippendorffAlpha({ ratings: byUnit(wikipedia), level: "nominal" });
    const interval = krippendorffAlpha({ ratings: byUnit(wikipedia), level: "interval" });
    expect(nominal.ok && nominal.value).toBeCloseTo(0.691358, 6);
    expect(interval.ok && interval.value).toBeCloseTo(0.810845, 6);
  });

  it("is 1 for perfect agreement, and says why when it is undefined", () => {
    const perfect = krippendorffAlpha({
      ratings: [
        [1, 1],
        [2, 2],
        [3, 3],
      ],
      level: "interval",
    });
    expect(perfect).toEqual({ ok: true, value: 1 });
    expect(
      krippendorffAlpha({
        ratings: [
          [1, 1],
          [1, 1],
        ],
        level: "nominal",
      }),
    ).toEqual({ ok: false, reason: expect.stringContaining("every rating is the same") });
    expect(
      krippendorffAlpha({
        ratings: [
          [1, null],
          [null, 2],
        ],
        level: "nominal",
      }),
    ).toEqual({ ok: false, reason: expect.stringContaining("two ratings") });
  });
});

describe("resampledAlpha (the bootstrap's alpha)", () => {
  it("gives each resample krippendorffAlpha's value to the bit, at every level, zero rows and all", () => {
    const random = seededRandom(7);
    // 300 units of 2 to 4 raters on a 0..1 scale at two decimals, some ratings missing, a few
    // units rated once; resamples drawn as the bootstrap draws them, so most miss some values.
    const ratings: (number | null)[][] = Array.from({ length: 300 }, (_, u) =>
      Array.from({ length: 2 + (u % 3) }, () =>
        random() < 0.1 ? null : Math.round(random() * 100) / 100,
      ),
    );
    for (const level of ["nominal", "ordinal", "interval"] as const) {
      const resampled = resampledAlpha({ ratings, level });
      for (let b = 0; b < 50; b++) {
        const sample = ratings.map(() => ratings[Math.floor(random() * ratings.length)]!);
        expect(resampled(sample)).toEqual(krippendorffAlpha({ ratings: sample, level }));
      }
      // A unit it was not prepared with is computed whole, not misread.
      const other = [[0.5, 0.25], ...ratings.slice(0, 10)];
      expect(resampled(other)).toEqual(krippendorffAlpha({ ratings: other, level }));
    }
  });
});
