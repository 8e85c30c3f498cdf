import { tidyNumber, tidyNumbers } from "./tidy-numbers";

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

/** JSON text of a value as `tidyNumbers` then `sortKeys` would give it, in one pass with no copy (a key's numbers tidied by that key). */
function stableText(value: unknown, key: string | undefined): string | undefined {
  if (typeof value === "number")
    return Number.isFinite(value) ? JSON.stringify(tidyNumber(value, key)) : "null";
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value))
    return `[${value.map((item) => stableText(item, key) ?? "null").join(",")}]`;
  const keys = Object.keys(value).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${fields(value as Record<string, unknown>, keys)}}`;
}

function fields(value: Record<string, unknown>, keys: readonly string[]): string {
  const parts: string[] = [];
  for (const k of keys) {
    const text = stableText(value[k], k);
    // As JSON.stringify: a field whose value is undefined (or a function) is left out.
    if (text !== undefined) parts.push(`${JSON.stringify(k)}:${text}`);
  }
  return parts.join(",");
}

/**
 * `JSON.stringify(stableObject(value, leading))` without building the two deep copies: ndjson
 * writes one line per result, and at a million results the copies were most of its CPU.
 */
export function stableJson(value: Record<string, unknown>, leading: readonly string[]): string {
  const present = leading.filter((k) => k in value);
  const rest = Object.keys(value)
    .filter((k) => !present.includes(k))
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${fields(value, [...present, ...rest])}}`;
}
