import type { ModelPrice } from "../engine/cost/cost";

// USD per million tokens, base input and output prices. Cache writes and reads
// are derived from the input price in lib/engine/cost.ts.
// Models the table does not list get no cost (null), never a guessed one.
const PRICE_LIST: Readonly<Record<string, ModelPrice>> = {
  "claude-opus-4-6": { inputPerMTok: 5, outputPerMTok: 25 },
  "claude-sonnet-4-6": { inputPerMTok: 3, outputPerMTok: 15 },
  "claude-opus-4-5": { inputPerMTok: 5, outputPerMTok: 25 },
  "claude-opus-4-1": { inputPerMTok: 15, outputPerMTok: 75 },
  "claude-opus-4": { inputPerMTok: 15, outputPerMTok: 75 },
  "claude-sonnet-4-5": { inputPerMTok: 3, outputPerMTok: 15 },
  "claude-sonnet-4": { inputPerMTok: 3, outputPerMTok: 15 },
  "claude-3-7-sonnet": { inputPerMTok: 3, outputPerMTok: 15 },
  "claude-haiku-4-5": { inputPerMTok: 1, outputPerMTok: 5 },
  "claude-3-5-haiku": { inputPerMTok: 0.8, outputPerMTok: 4 },
  "claude-3-haiku": { inputPerMTok: 0.25, outputPerMTok: 1.25 },
};
// A Map, so that a name such as "toString" finds nothing on Object.prototype.
const PRICES = new Map(Object.entries(PRICE_LIST));

// A snapshot id is the family id plus a date (`claude-sonnet-4-5-20250929`,
// or `@20250929` on Vertex); an alias ends in `-latest`. Only the suffix is
// stripped, and the rest must match exactly, so that `claude-opus-4-5` never
// falls back to `claude-opus-4`.
const SUFFIX = /(?:[-@]\d{8}|-latest)$/;

export function priceOf(model: string): ModelPrice | undefined {
  const exact = PRICES.get(model);
  if (exact) return exact;
  const family = model.replace(SUFFIX, "");
  return family === model ? undefined : PRICES.get(family);
}

/** The family ids the table knows, for listings and validation messages. */
export const PRICED_MODELS: readonly string[] = [...PRICES.keys()];
