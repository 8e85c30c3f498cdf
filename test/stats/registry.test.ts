import { describe, expect, it } from "vitest";
import { AGREEMENT_STATISTICS } from "../../lib/stats/registry";

// Walks every agreement statistic: each is named as its key, says what it
// measures, and behaves at the two ends every judge-trust view relies on:
// perfect agreement reads 1, and data it cannot judge is a reason, not NaN.

describe("the agreement statistics registry", () => {
  it("lists exact agreement, Krippendorff's alpha and Fleiss' kappa", () => {
    expect(Object.keys(AGREEMENT_STATISTICS)).toEqual([
      "exact_agreement",
      "krippendorff_alpha",
      "fleiss_kappa",
    ]);
  });

  for (const [key, statistic] of Object.entries(AGREEMENT_STATISTICS)) {
    it(`${key}: perfect agreement is 1 at every level it supports; one rating per item is undefined with a reason`, () => {
      expect(statistic.name).toBe(key);
      expect(statistic.description.length).toBeGreaterThan(20);
      for (const level of statistic.levels) {
        expect(
          statistic.compute({
            ratings: [
              [0, 0, 0],
              [1, 1, 1],
              [0.5, 0.5, 0.5],
            ],
            level,
          }),
        ).toEqual({ ok: true, value: 1 });
        const lonely = statistic.compute({
          ratings: [
            [1, null, null],
            [null, 0, null],
          ],
          level,
        });
        expect(lonely.ok).toBe(false);
        if (!lonely.ok) expect(lonely.reason.length).toBeGreaterThan(10);
      }
    });
  }
});
