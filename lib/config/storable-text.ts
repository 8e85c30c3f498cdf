import type { DataPath, YamlLocator } from "./yaml-locator";
import { positionsIn } from "./yaml-locator";
import type { ConfigIssue } from "./types";

// Text the run history cannot hold: Postgres text and jsonb refuse a NUL
// (U+0000: `22P05 unsupported Unicode escape sequence`, `22021 invalid byte
// sequence`), and jsonb refuses an unpaired UTF-16 surrogate, which a text
// column would silently turn into U+FFFD. YAML's double-quoted escapes (`"\0"`,
// `"\x00"`, `"\u0000"`, `"\ud800"`) are the usual way in. The loader refuses
// such a suite at the character (`storableTextIssues`), the dashboard refuses
// such a request body with a 400, and what a model sends back is made
// storable by the store (lib/store/storable.ts); all with this one test.

/** Index of the first character Postgres text cannot hold (a NUL or an unpaired surrogate), or -1. */
export function unstorableAt(text: string): number {
  return UNSTORABLE.exec(text)?.index ?? -1;
}

/** A NUL, or a surrogate without its other half (String.prototype.isWellFormed is ES2024, past the project's lib). */
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Every such character, for a replacement (the same pattern, global). */
export const UNSTORABLE_ALL =
  /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** Whether Postgres text can hold this string as it is. */
export function isStorable(text: string): boolean {
  return !UNSTORABLE.test(text);
}

/** What the character at `index` is, for a message: `a NUL character (\0)` or `an unpaired surrogate (\ud800)`. */
export function describeUnstorable(text: string, index: number): string {
  const code = text.charCodeAt(index);
  return code === 0
    ? "a NUL character (\\0)"
    : `an unpaired surrogate (\\u${code.toString(16).padStart(4, "0")})`;
}

/** The end of every message about such text: why, and what to do. */
export const UNSTORABLE_REASON = "which the run history (Postgres text) cannot store; remove it";

/** Issues past this many are not worth listing: the author fixes the first ones and checks again. */
const MAX_ISSUES = 20;

/** A string (a value, or a key: then `path` ends with it) that holds a character Postgres text cannot. */
export interface UnstorableString {
  path: DataPath;
  key: boolean;
  text: string;
}

/**
 * The strings of a JSON-like value (keys included) that hold a character
 * Postgres text cannot, in document order, at most `limit`. Iterative (a
 * hostile body cannot exhaust the stack), each object read once (a YAML
 * alias is one object); paths are built only for what is found.
 */
export function unstorableStrings(value: unknown, limit: number): UnstorableString[] {
  interface Entry {
    value: unknown;
    parent?: Entry;
    segment?: string | number;
  }
  const pathOf = (entry: Entry): DataPath => {
    const path: DataPath = [];
    for (let e: Entry | undefined = entry; e?.parent; e = e.parent) path.push(e.segment!);
    return path.reverse();
  };
  const found: UnstorableString[] = [];
  const stack: Entry[] = [{ value }];
  const seen = new Set<object>();
  while (stack.length > 0 && found.length < limit) {
    const entry = stack.pop()!;
    const current = entry.value;
    if (typeof current === "string") {
      if (!isStorable(current)) found.push({ path: pathOf(entry), key: false, text: current });
      continue;
    }
    if (current === null || typeof current !== "object" || seen.has(current)) continue;
    seen.add(current);
    if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--)
        stack.push({ value: current[i], parent: entry, segment: i });
      continue;
    }
    const keys = Object.keys(current);
    for (let i = keys.length - 1; i >= 0; i--) {
      const key = keys[i]!;
      if (!isStorable(key)) found.push({ path: [...pathOf(entry), key], key: true, text: key });
      stack.push({ value: (current as Record<string, unknown>)[key], parent: entry, segment: key });
    }
  }
  return found.slice(0, limit);
}

/**
 * A suite's text, and every string (keys included) of its data, that holds a
 * character Postgres text cannot: located issues, at most MAX_ISSUES.
 */
export function storableTextIssues(input: {
  text: string;
  data: unknown;
  locator: YamlLocator;
  file: string;
}): ConfigIssue[] {
  const { text, file, locator } = input;
  const issues = unstorableStrings(input.data, MAX_ISSUES).map((found): ConfigIssue => ({
    file,
    ...(found.key
      ? locator.locateKey(found.path.slice(0, -1), found.text)
      : locator.locate(found.path)),
    path: found.path,
    message: `this ${found.key ? "key" : "value"} contains ${describeUnstorable(found.text, unstorableAt(found.text))}, ${UNSTORABLE_REASON}`,
    severity: "error",
  }));
  if (issues.length > 0) return issues.slice(0, MAX_ISSUES);
  // Not in any value: a raw one in a comment, say. The saved YAML itself is text too.
  const at = unstorableAt(text);
  if (at === -1) return [];
  return [
    {
      file,
      ...positionsIn(text)(at),
      path: [],
      message: `the suite contains ${describeUnstorable(text, at)}, ${UNSTORABLE_REASON}`,
      severity: "error",
    },
  ];
}
