import { modelFamilyOf } from "../config/model-family";
import {
  BUILTIN_PROVIDERS,
  splitModelName,
  type ProviderConfig,
  type ProviderType,
} from "../config/provider-schema";
import type { ModelPrice } from "../engine/cost/cost";
import { resolveProvider, type ResolvedModel } from "../engine/plan/resolve-provider";
import { cacheMinimumOf, DEFAULT_CACHE_MINIMUM_TOKENS } from "./cache-minimums";
import { openaiPriceOf } from "./openai-pricing";
import { priceOf as anthropicPriceOf } from "./pricing";

// Which provider serves each model, its price and its prompt-cache minimum,
// given the declared providers and which key variables are set: shared by the
// CLI (a suite's own providers:) and the dashboard (the server's providers),
// so both plan, price and defer alike. No key value passes through here, and
// no SDK is loaded: the editor's plan runs it on small worker threads.

/** Each provider type's price table (USD per MTok on the vendor's own API); the adapters' registry uses the same. */
export const PRICE_TABLES: {
  readonly [T in ProviderType]: (model: string) => ModelPrice | undefined;
} = { anthropic: anthropicPriceOf, openai: openaiPriceOf };

/** The price of a resolved model: its vendor's table, or none for a declared provider (a local server, a proxy). */
export function priceOfResolved(resolved: ResolvedModel): ModelPrice | undefined {
  return resolved.declared ? undefined : PRICE_TABLES[resolved.type](resolved.model);
}

/**
 * The price of a stored call (the run page's), by the provider that served
 * it: a built-in provider's table, none for a declared one (its calls were
 * unpriced when made). A call stored before its provider was recorded is
 * read by its model's prefix, else its family, else as Anthropic's.
 */
export function priceOfStoredCall(call: {
  model: string;
  provider: string | null;
}): ModelPrice | undefined {
  const { prefix, name } = splitModelName(call.model);
  const provider = call.provider ?? prefix ?? modelFamilyOf(call.model)?.provider ?? "anthropic";
  return Object.hasOwn(BUILTIN_PROVIDERS, provider)
    ? PRICE_TABLES[BUILTIN_PROVIDERS[provider]!](name)
    : undefined;
}

export interface ProviderResolution {
  resolve(model: string): ResolvedModel;
  priceOf(model: string): ModelPrice | undefined;
  /**
   * The smallest prefix the model's prompt cache keeps, for the cost projection; undefined for a
   * provider the judge does not lay out for the cache.
   */
  cacheMinimumOf(model: string): number | undefined;
}

/** Models a run names are few; a long-lived server's are bounded all the same. */
const MAX_RESOLVED = 1_000;

export function providerResolution(input: {
  declared?: Readonly<Record<string, ProviderConfig>>;
  hasKey: (keyEnv: string) => boolean;
}): ProviderResolution {
  const context = { ...(input.declared ? { declared: input.declared } : {}), hasKey: input.hasKey };
  // Each model resolved once: a run asks for every judge call (twice: its prefixes, then the call).
  const resolved = new Map<string, ResolvedModel>();
  const resolve = (model: string) => {
    let known = resolved.get(model);
    if (known === undefined) {
      known = resolveProvider(model, context);
      if (resolved.size < MAX_RESOLVED) resolved.set(model, known);
    }
    return known;
  };
  return {
    resolve,
    priceOf: (model) => priceOfResolved(resolve(model)),
    cacheMinimumOf: (model) => {
      const resolved = resolve(model);
      // The Messages API's minimums, as the request layout uses them (an unlisted model gets the default).
      return resolved.type === "anthropic" && !resolved.declared
        ? (cacheMinimumOf(resolved.model) ?? DEFAULT_CACHE_MINIMUM_TOKENS)
        : undefined;
    },
  };
}
