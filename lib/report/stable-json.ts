import { tidyNumbers } from "./tidy-numbers";

// Keys are sorted, except for a few leading keys that a reader looks for
// first, so the same report always gives the same bytes however it was built
// and a diff of two runs shows only what changed.

export function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== "object") return value;
  const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) =>
    a < b ? -1 : a > b ? 1 : 0,
  );
  return Object.fromEntries(entries.map(([key, inner]) => [key, sortKeys(inner)]));
}

/**
 * Sorts keys at every depth (numbers tidied: `tidy-numbers.ts`), then moves `leading` (those
 * present) to the front of the top level.
 */
export function stableObject(
  value: Record<string, unknown>,
  leading: readonly string[],
): Record<string, unknown> {
  const sorted = sortKeys(tidyNumbers(value)) as Record<string, unknown>;
  const ordered: Record<string, unknown> = {};
  for (const key of leading) if (key in sorted) ordered[key] = sorted[key];
  for (const [key, inner] of Object.entries(sorted)) if (!(key in ordered)) ordered[key] = inner;
  return ordered;
}
