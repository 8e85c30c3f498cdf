import { describe, expect, it } from "vitest";
import { costOf, estimateTokens } from "../../lib/engine/cost/cost";
import { priceOf } from "../../lib/judge/pricing";

describe("priceOf", () => {
  it.each([
    ["claude-opus-4-5", 5, 25],
    ["claude-opus-4-5-20251101", 5, 25],
    ["claude-opus-4-1-20250805", 15, 75],
    ["claude-opus-4-20250514", 15, 75],
    ["claude-sonnet-4-5-20250929", 3, 15],
    ["claude-sonnet-4-20250514", 3, 15],
    ["claude-3-7-sonnet-latest", 3, 15],
    ["claude-haiku-4-5", 1, 5],
    ["claude-3-5-haiku-20241022", 0.8, 4],
    ["claude-3-haiku-20240307", 0.25, 1.25],
    ["claude-sonnet-4-5@20250929", 3, 15],
  ])("prices %s at $%d / $%d per MTok", (model, input, output) => {
    expect(priceOf(model)).toEqual({ inputPerMTok: input, outputPerMTok: output });
  });

  it("does not confuse a newer family with an older one", () => {
    expect(priceOf("claude-opus-4-5-20251101")?.inputPerMTok).toBe(5);
    expect(priceOf("claude-opus-4-20250514")?.inputPerMTok).toBe(15);
  });

  it.each([
    "gpt-4o",
    "claude-opus-5",
    "claude-sonnet-4-5-extra",
    "toString",
    "constructor",
    "",
    "claude-sonnet-4-5-2025",
  ])("knows nothing of %j", (model) => {
    expect(priceOf(model)).toBeUndefined();
  });
});

describe("costOf", () => {
  it("charges cache writes at 1.25x and cache reads at 0.1x the input price", () => {
    const price = { inputPerMTok: 3, outputPerMTok: 15 };
    expect(costOf(price, { input: 1_000_000, output: 0, cacheRead: 0, cacheWrite: 0 })).toBeCloseTo(
      3,
      10,
    );
    expect(costOf(price, { input: 0, output: 1_000_000, cacheRead: 0, cacheWrite: 0 })).toBeCloseTo(
      15,
      10,
    );
    expect(costOf(price, { input: 0, output: 0, cacheRead: 0, cacheWrite: 1_000_000 })).toBeCloseTo(
      3.75,
      10,
    );
    expect(costOf(price, { input: 0, output: 0, cacheRead: 1_000_000, cacheWrite: 0 })).toBeCloseTo(
      0.3,
      10,
    );
    // 200 × 1 + 4000 × 1.25 + 8000 × 0.1 + 100 × 5 = 200 + 5000 + 800 + 500 = 6500 per MTok
    expect(
      costOf(
        { inputPerMTok: 1, outputPerMTok: 5 },
        { input: 200, output: 100, cacheRead: 8000, cacheWrite: 4000 },
      ),
    ).toBeCloseTo(0.0065, 12);
  });

  it("estimates about four characters a token, rounding up", () => {
    expect(estimateTokens("")).toBe(0);
    expect(estimateTokens("abcd")).toBe(1);
    expect(estimateTokens("abcde")).toBe(2);
    expect(estimateTokens("x".repeat(4000))).toBe(1000);
  });
});
