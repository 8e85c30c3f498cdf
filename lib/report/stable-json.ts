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

/**
 * JSON text of a value as `tidyNumbers` then `sortKeys` would give it, in one pass with no copy (a
 * key's numbers tidied by that key), appended to one string: ndjson writes a line per result, and at
 * a million results the arrays of parts, their joins and the sorts' scratch arrays were most of its
 * CPU and garbage.
 */
function stableText(value: unknown, key: string | undefined): string | undefined {
  if (typeof value === "number")
    return Number.isFinite(value) ? String(tidyNumber(value, key)) : "null";
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value)) {
    let text = "[";
    for (let i = 0; i < value.length; i++) {
      if (i > 0) text += ",";
      text += stableText(value[i], key) ?? "null";
    }
    return `${text}]`;
  }
  const keys = Object.keys(value);
  return `{${fields(value as Record<string, unknown>, sortCodeUnits(keys))}}`;
}

/** Sorts keys by UTF-16 code units, in place: an insertion sort for the few keys of a report object (no scratch array). */
function sortCodeUnits(keys: string[]): string[] {
  if (keys.length > 32) return keys.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  for (let i = 1; i < keys.length; i++) {
    const k = keys[i]!;
    let j = i - 1;
    while (j >= 0 && keys[j]! > k) {
      keys[j + 1] = keys[j]!;
      j--;
    }
    keys[j + 1] = k;
  }
  return keys;
}

/** `"key":` per key, quoted once: a report repeats the same few dozen keys on every line. */
const quotedKeys = new Map<string, string>();
const MAX_QUOTED_KEYS = 10_000;
function quotedKey(key: string): string {
  let quoted = quotedKeys.get(key);
  if (quoted === undefined) {
    quoted = `${JSON.stringify(key)}:`;
    if (quotedKeys.size < MAX_QUOTED_KEYS) quotedKeys.set(key, quoted);
  }
  return quoted;
}

/** The fields of `value` named by `keys`, comma-separated. */
function fields(value: Record<string, unknown>, keys: readonly string[]): string {
  let text = "";
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!;
    const inner = stableText(value[k], k);
    // As JSON.stringify: a field whose value is undefined (or a function) is left out.
    if (inner === undefined) continue;
    if (text !== "") text += ",";
    text += quotedKey(k) + inner;
  }
  return text;
}

/**
 * `JSON.stringify(stableObject(value, leading))` without building the two deep copies: ndjson
 * writes one line per result, and at a million results the copies were most of its CPU.
 */
export function stableJson(value: Record<string, unknown>, leading: readonly string[]): string {
  const present = leading.filter((k) => k in value);
  const rest = sortCodeUnits(Object.keys(value).filter((k) => !leading.includes(k)));
  return `{${fields(value, present.concat(rest))}}`;
}
