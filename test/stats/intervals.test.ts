import { describe, expect, it } from "vitest";
import { wilsonInterval } from "../../lib/stats/wilson-interval";
import { bootstrapInterval } from "../../lib/stats/bootstrap";
import { krippendorffAlpha } from "../../lib/stats/krippendorff-alpha";

describe("the Wilson score interval", () => {
  // Newcombe (1998), "Two-sided confidence intervals for the single proportion:
  // comparison of seven methods", Statistics in Medicine 17, Table II, method 3
  // (score interval without continuity correction).
  it.each([
    [81, 263, 0.2553, 0.3662],
    [15, 148, 0.0624, 0.1605],
    [0, 20, 0, 0.1611],
    [1, 29, 0.0061, 0.1718],
  ])("%i of %i: %f to %f", (successes, trials, low, high) => {
    const interval = wilsonInterval({ successes, trials })!;
    expect(interval.low).toBeCloseTo(low, 4);
    expect(interval.high).toBeCloseTo(high, 4);
  });

  it("has no interval without trials", () => {
    expect(wilsonInterval({ successes: 0, trials: 0 })).toBeUndefined();
  });
});

describe("the bootstrap interval", () => {
  const units = Array.from({ length: 40 }, (_, i) => [
    i % 5,
    (i % 5) + (i % 7 === 0 ? 1 : 0),
    i % 5,
  ]);
  const alpha = (sample: (number | null)[][]) =>
    krippendorffAlpha({ ratings: sample, level: "interval" });

  it("brackets the point estimate, and is the same every time (seeded)", () => {
    const point = alpha(units);
    const a = bootstrapInterval({ units, statistic: alpha })!;
    const b = bootstrapInterval({ units, statistic: alpha })!;
    expect(point.ok).toBe(true);
    if (point.ok) {
      expect(a.low).toBeLessThanOrEqual(point.value);
      expect(a.high).toBeGreaterThanOrEqual(point.value);
    }
    expect(a).toEqual(b);
    expect(a.high - a.low).toBeGreaterThan(0);
  });

  it("is narrower with more data", () => {
    const small = bootstrapInterval({ units: units.slice(0, 10), statistic: alpha })!;
    const large = bootstrapInterval({ units: [...units, ...units, ...units], statistic: alpha })!;
    expect(large.high - large.low).toBeLessThan(small.high - small.low);
  });
});
