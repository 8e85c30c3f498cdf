import type { ModelPrice } from "../engine/cost/cost";

// USD per million tokens on OpenAI's own API (input, cached input, output).
// Only the built-in openai provider is priced from here: a declared provider
// (a local server, a proxy) is unpriced, never given a guessed figure.
const PRICE_LIST: Readonly<Record<string, ModelPrice>> = {
  "gpt-5": { inputPerMTok: 1.25, cachedInputPerMTok: 0.125, outputPerMTok: 10 },
  "gpt-5-mini": { inputPerMTok: 0.25, cachedInputPerMTok: 0.025, outputPerMTok: 2 },
  "gpt-5-nano": { inputPerMTok: 0.05, cachedInputPerMTok: 0.005, outputPerMTok: 0.4 },
  "gpt-4.1": { inputPerMTok: 2, cachedInputPerMTok: 0.5, outputPerMTok: 8 },
  "gpt-4.1-mini": { inputPerMTok: 0.4, cachedInputPerMTok: 0.1, outputPerMTok: 1.6 },
  "gpt-4.1-nano": { inputPerMTok: 0.1, cachedInputPerMTok: 0.025, outputPerMTok: 0.4 },
  "gpt-4o": { inputPerMTok: 2.5, cachedInputPerMTok: 1.25, outputPerMTok: 10 },
  "gpt-4o-mini": { inputPerMTok: 0.15, cachedInputPerMTok: 0.075, outputPerMTok: 0.6 },
  o3: { inputPerMTok: 2, cachedInputPerMTok: 0.5, outputPerMTok: 8 },
  "o4-mini": { inputPerMTok: 1.1, cachedInputPerMTok: 0.275, outputPerMTok: 4.4 },
};
const PRICES = new Map(Object.entries(PRICE_LIST));

// A snapshot id is the family id plus a date: gpt-4.1-mini-2025-04-14.
const SNAPSHOT = /-\d{4}-\d{2}-\d{2}$/;

export function openaiPriceOf(model: string): ModelPrice | undefined {
  return PRICES.get(model) ?? PRICES.get(model.replace(SNAPSHOT, ""));
}
