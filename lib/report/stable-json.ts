import { tidyNumber, tidyNumbers } from "./tidy-numbers";

// Keys are sorted, except for a few leading keys that a reader looks for
// first, so the same report always gives the same bytes however it was built
// and a diff of two runs shows only what changed.
//
// One order for every writer, `keyOrder`: integer-like keys ("0", "2", "10": array indexes, as
// JavaScript defines them) first in numeric order, then the others by UTF-16 code units. It is
// the order JSON.stringify gives any object built with sorted keys (an object lists its integer
// keys first whatever the insertion order), so `stableObject` (the json reporter) and the text
// written directly by `stableJson` (ndjson) agree; code-unit order alone put "10" before "2".

/** A key JavaScript lists first, in numeric order: a canonical integer below 2^32 - 1. */
function isIndexKey(key: string): boolean {
  const c = key.charCodeAt(0);
  if (c < 48 || c > 57 || key.length > 10) return false;
  if (c === 48) return key.length === 1;
  for (let i = 1; i < key.length; i++) {
    const d = key.charCodeAt(i);
    if (d < 48 || d > 57) return false;
  }
  return Number(key) < 4294967295;
}

/** The one key order of every report writer (see above). */
export function keyOrder(a: string, b: string): number {
  const ai = isIndexKey(a);
  if (ai !== isIndexKey(b)) return ai ? -1 : 1;
  if (ai) return Number(a) - Number(b);
  return a < b ? -1 : a > b ? 1 : 0;
}

export function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== "object") return value;
  const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) =>
    keyOrder(a, b),
  );
  return Object.fromEntries(entries.map(([key, inner]) => [key, sortKeys(inner)]));
}

/**
 * Sorts keys at every depth (numbers tidied: `tidy-numbers.ts`), then moves `leading` (those
 * present) to the front of the top level, behind any integer-like keys (an object lists those first).
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
  return `{${fields(value as Record<string, unknown>, sortInOrder(keys))}}`;
}

/**
 * Sorts keys by `keyOrder`, in place: an insertion sort for the few keys of a report object (no
 * scratch array). `Object.keys` lists integer-like keys first, in numeric order, so only the rest
 * need sorting, by code units.
 */
function sortInOrder(keys: string[]): string[] {
  let first = 0;
  while (first < keys.length && isIndexKey(keys[first]!)) first++;
  if (keys.length - first > 32) {
    if (first === 0) return keys.sort(keyOrder);
    return keys.slice(0, first).concat(keys.slice(first).sort(keyOrder));
  }
  for (let i = first + 1; i < keys.length; i++) {
    const k = keys[i]!;
    let j = i - 1;
    while (j >= first && keys[j]! > k) {
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
  const keys = sortInOrder(Object.keys(value));
  let indexes = 0;
  while (indexes < keys.length && isIndexKey(keys[indexes]!)) indexes++;
  const present = leading.filter((k) => k in value && !isIndexKey(k));
  const rest = keys.slice(indexes).filter((k) => !present.includes(k));
  return `{${fields(value, keys.slice(0, indexes).concat(present, rest))}}`;
}
