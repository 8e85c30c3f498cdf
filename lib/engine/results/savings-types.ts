// What a run saved, as the report carries it (Report.savings): the prompt
// cache, the judge cache and Message Batches, in dollars. Types only; the
// computation is cost/savings.ts.

/** Dollars saved (negative: it cost more). `usd` is null when every part of it comes from unpriced models; `unpriced` when some part does and is left out of `usd`. */
export interface Saving {
  usd: number | null;
  unpriced: boolean;
}

export interface PromptCacheSavings {
  /** Input tokens read from the prompt cache. */
  readTokens: number;
  /** Input tokens written to the prompt cache. */
  writeTokens: number;
  /** Reads at 0.1x instead of 1x the input price (a provider's own cached price where it has one). */
  reads: Saving;
  /** Writes at 1.25x the input price: a negative saving. */
  writes: Saving;
  /** reads + writes. */
  net: Saving;
}

export interface Savings {
  promptCache: PromptCacheSavings;
  /** Verdicts reused from the judge cache, and what those calls cost when they were made. */
  judgeCache: { calls: number; saved: Saving };
  /** Message Batches: what half price saved on the batched calls (present when some were batched); `total` adds it. */
  batch?: { calls: number; saved: Saving };
  /** Everything above together. */
  total: Saving;
}
