import type { TokenUsage } from "../ports/judge-port";

// Cost of judge calls, pure. Prices come in from lib/judge/pricing (the engine
// does not know model names), so that planning can project a run's cost and
// the judge adapter can record what a call cost with the same formula.

/** USD per million tokens. */
export interface ModelPrice {
  inputPerMTok: number;
  outputPerMTok: number;
  /** A provider's own price of cached input (OpenAI); without it, cache reads cost 0.1x the input price. */
  cachedInputPerMTok?: number;
}

// Prompt caching: writing the cache costs 1.25x the input price (5-minute
// ephemeral cache) or 2x (1-hour), reading it 0.1x. `usage.input` holds only
// the uncached input tokens, as the API reports cache writes and reads
// separately; `cacheWrite1h` is the part of `cacheWrite` written for an hour.
const CACHE_WRITE_FACTOR = 1.25;
const CACHE_WRITE_1H_FACTOR = 2;
const CACHE_READ_FACTOR = 0.1;

export function costOf(price: ModelPrice, usage: TokenUsage): number {
  const cacheRead =
    price.cachedInputPerMTok === undefined
      ? usage.cacheRead * CACHE_READ_FACTOR * price.inputPerMTok
      : usage.cacheRead * price.cachedInputPerMTok;
  const hour = usage.cacheWrite1h ?? 0;
  const inputTokens =
    usage.input + (usage.cacheWrite - hour) * CACHE_WRITE_FACTOR + hour * CACHE_WRITE_1H_FACTOR;
  return (
    (inputTokens * price.inputPerMTok + cacheRead + usage.output * price.outputPerMTok) / 1_000_000
  );
}

/**
 * Message Batches bill every token at half the standard price, cache writes
 * and reads included (the cache multipliers apply on top).
 */
export const BATCH_PRICE_FACTOR = 0.5;

/** Prices as Message Batches bill them, for the budget and the projections of a batched run. */
export function batchPriceOf(
  priceOf: (model: string) => ModelPrice | undefined,
): (model: string) => ModelPrice | undefined {
  return (model) => {
    const price = priceOf(model);
    return price ? batchPrice(price) : undefined;
  };
}

/** A model's price when its calls go through Message Batches. */
export function batchPrice(price: ModelPrice): ModelPrice {
  return {
    inputPerMTok: price.inputPerMTok * BATCH_PRICE_FACTOR,
    outputPerMTok: price.outputPerMTok * BATCH_PRICE_FACTOR,
    ...(price.cachedInputPerMTok !== undefined
      ? { cachedInputPerMTok: price.cachedInputPerMTok * BATCH_PRICE_FACTOR }
      : {}),
  };
}

/** A rough token count for projections (about four characters a token), never below the truth by much for English. */
export function estimateTokens(text: string): number {
  return tokensForChars(text.length);
}

/** estimateTokens of a text of this many characters. */
export function tokensForChars(chars: number): number {
  return Math.ceil(chars / 4);
}
