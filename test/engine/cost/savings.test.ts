import { describe, expect, it } from "vitest";
import {
  promptCacheSavingsOf,
  savingsOfCalls,
  type SavingsCall,
} from "../../../lib/engine/cost/savings";
import type { ModelPrice } from "../../../lib/engine/cost/cost";

// Worked by hand at $3 / MTok input, $15 / MTok output (claude-sonnet-4-5's price):
// a cache read is billed 0.1x ($0.30 / MTok), so each read token saves $2.70 / MTok;
// a cache write is billed 1.25x ($3.75 / MTok), so each written token costs $0.75 / MTok more.
const SONNET: ModelPrice = { inputPerMTok: 3, outputPerMTok: 15 };
const prices: Record<string, ModelPrice> = {
  sonnet: SONNET,
  "gpt-mini": { inputPerMTok: 0.4, outputPerMTok: 1.6, cachedInputPerMTok: 0.1 },
};
const priceOf = (model: string) => prices[model];

function call(
  model: string,
  usage: Partial<SavingsCall["usage"]>,
  extra: Partial<SavingsCall> = {},
): SavingsCall {
  return {
    model,
    usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, ...usage },
    costUsd: 0,
    ...extra,
  };
}

describe("prompt-cache savings", () => {
  it("saves 0.9x the input price per token read and costs 0.25x more per token written", () => {
    const s = promptCacheSavingsOf(SONNET, { cacheRead: 1_000_000, cacheWrite: 200_000 });
    expect(s.reads.usd).toBeCloseTo(2.7, 10); // 1M × $3 × 0.9
    expect(s.writes.usd).toBeCloseTo(-0.15, 10); // 200k × $3 × -0.25
    expect(s.net.usd).toBeCloseTo(2.55, 10);
    expect([s.reads.unpriced, s.writes.unpriced, s.net.unpriced]).toEqual([false, false, false]);
    expect([s.readTokens, s.writeTokens]).toEqual([1_000_000, 200_000]);
  });

  it("uses a provider's own cached-input price where it has one", () => {
    // $0.40 sent as input against $0.10 read from the cache: $0.30 / MTok saved.
    const s = promptCacheSavingsOf(prices["gpt-mini"], { cacheRead: 2_000_000, cacheWrite: 0 });
    expect(s.reads.usd).toBeCloseTo(0.6, 10);
    expect(s.writes).toEqual({ usd: 0, unpriced: false });
  });

  it("an unpriced model keeps its tokens and has no dollar figure", () => {
    const s = promptCacheSavingsOf(undefined, { cacheRead: 5000, cacheWrite: 1200 });
    expect(s.readTokens).toBe(5000);
    expect(s.writeTokens).toBe(1200);
    expect(s.reads).toEqual({ usd: null, unpriced: true });
    expect(s.writes).toEqual({ usd: null, unpriced: true });
    expect(s.net).toEqual({ usd: null, unpriced: true });
  });
});

describe("a run's savings", () => {
  it("adds the prompt cache over every model and the judge cache's reused verdicts", () => {
    const savings = savingsOfCalls(
      [
        call("sonnet", { input: 100, output: 300, cacheRead: 600_000, cacheWrite: 100_000 }),
        call("sonnet", { input: 100, output: 300, cacheRead: 400_000 }),
        call("gpt-mini", { input: 50, cacheRead: 1_000_000 }),
        call("sonnet", {}, { reused: { savedUsd: 0.012 } }),
        call("sonnet", {}, { reused: { savedUsd: 0.008 } }),
      ],
      priceOf,
    );
    // sonnet: 1M read → $2.70, 100k written → -$0.075; gpt-mini: 1M read at $0.40 - $0.10 → $0.30.
    expect(savings.promptCache.readTokens).toBe(2_000_000);
    expect(savings.promptCache.writeTokens).toBe(100_000);
    expect(savings.promptCache.reads.usd).toBeCloseTo(3.0, 10);
    expect(savings.promptCache.writes.usd).toBeCloseTo(-0.075, 10);
    expect(savings.promptCache.net.usd).toBeCloseTo(2.925, 10);
    expect(savings.judgeCache.calls).toBe(2);
    expect(savings.judgeCache.saved.usd).toBeCloseTo(0.02, 10);
    expect(savings.total.usd).toBeCloseTo(2.945, 10);
    expect(savings.total.unpriced).toBe(false);
    expect(savings.batch).toBeUndefined();
  });

  it("a mixed panel: the priced part in dollars, marked unpriced for the rest; all unpriced reads 'no figure'", () => {
    const mixed = savingsOfCalls(
      [call("sonnet", { cacheRead: 1_000_000 }), call("local:qwen3-8b", { cacheRead: 9_000 })],
      priceOf,
    );
    expect(mixed.promptCache.reads).toEqual({ usd: expect.closeTo(2.7, 10), unpriced: true });
    expect(mixed.promptCache.readTokens).toBe(1_009_000);
    const local = savingsOfCalls(
      [
        call("local:qwen3-8b", { cacheRead: 9_000, cacheWrite: 3_000 }),
        call("local:qwen3-8b", {}, { reused: { savedUsd: null } }),
      ],
      priceOf,
    );
    expect(local.promptCache.net).toEqual({ usd: null, unpriced: true });
    expect(local.judgeCache).toEqual({ calls: 1, saved: { usd: null, unpriced: true } });
    expect(local.total).toEqual({ usd: null, unpriced: true });
  });

  it("nothing cached and nothing reused saves $0, not 'unpriced'", () => {
    const savings = savingsOfCalls([call("local:qwen3-8b", { input: 500, output: 20 })], priceOf);
    expect(savings.total).toEqual({ usd: 0, unpriced: false });
    expect(savings.judgeCache).toEqual({ calls: 0, saved: { usd: 0, unpriced: false } });
  });
});
