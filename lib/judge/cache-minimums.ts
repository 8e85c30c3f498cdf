// The smallest prefix the Messages API caches, in tokens, per model family.
// Below it a breakpoint writes nothing and the API says nothing
// (cache_creation_input_tokens and cache_read_input_tokens both 0).
//
// Source: Anthropic's prompt-caching guide, "Cache limitations"
// (https://platform.claude.com/docs/en/build-with-claude/prompt-caching), as
// quoted in anthropics/anthropic-sdk-python#1194 (2026): 4,096 for Opus 4.6,
// Opus 4.5 and Haiku 4.5; 1,024 for Sonnet 4.6, Sonnet 4.5, Opus 4.1, Opus 4,
// Sonnet 4 and Sonnet 3.7; 2,048 for Haiku 3.5 and Haiku 3. That issue reports
// Sonnet 4.6 caching only from 2,048 in practice, and a proxy's docs
// (docs.orq.ai, prompt caching) list 2,048 for it: we take the larger figure,
// since a minimum set too high only costs a missed warning, one set too low a
// false one. Same family ids as the price table (pricing.ts).
const MINIMUM_LIST: Readonly<Record<string, number>> = {
  "claude-opus-4-6": 4096,
  "claude-sonnet-4-6": 2048,
  "claude-opus-4-5": 4096,
  "claude-opus-4-1": 1024,
  "claude-opus-4": 1024,
  "claude-sonnet-4-5": 1024,
  "claude-sonnet-4": 1024,
  "claude-3-7-sonnet": 1024,
  "claude-haiku-4-5": 4096,
  "claude-3-5-haiku": 2048,
  "claude-3-haiku": 2048,
};
const MINIMUMS = new Map(Object.entries(MINIMUM_LIST));

/** Used for a model the table does not list: the smallest minimum of any current model. */
export const DEFAULT_CACHE_MINIMUM_TOKENS = 1024;

const SUFFIX = /(?:[-@]\d{8}|-latest)$/;

/** The model's smallest cacheable prefix in tokens, or undefined when the table does not list it. */
export function cacheMinimumOf(model: string): number | undefined {
  return MINIMUMS.get(model) ?? MINIMUMS.get(model.replace(SUFFIX, ""));
}

/** The family ids the table knows (a test checks they are the price table's). */
export const CACHE_MINIMUM_MODELS: readonly string[] = [...MINIMUMS.keys()];
