import { isStorable, UNSTORABLE_ALL } from "../config/storable-text";

// What a model sends back (a judge's reasoning and evidence, its raw reply, an
// agent's answer or a tool's result) may hold characters Postgres cannot store:
// a NUL anywhere, or an unpaired surrogate in jsonb. Stored as they are, the
// write fails (`22P05 unsupported Unicode escape sequence`) and the verdict,
// already paid for, is lost. Suites, datasets and request bodies refuse such
// text where it is written (lib/config/storable-text.ts); what comes from a
// model is written with each such character replaced by U+FFFD, the
// replacement character a decoder puts where bytes cannot be text.

const REPLACEMENT = "\ufffd";

/** The string with every NUL and unpaired surrogate replaced by U+FFFD; the same string when it has none. */
export function storableText(text: string): string {
  return isStorable(text) ? text : text.replace(UNSTORABLE_ALL, REPLACEMENT);
}

/**
 * Any JSON-like value with every string and key made storable. The input is
 * never changed, and a value with nothing to replace is returned as it is (the
 * common case: no copy).
 */
export function storableDeep<T>(value: T): T {
  if (typeof value === "string") return storableText(value) as T;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const stored = storableDeep(value[i] as unknown);
      if (stored !== value[i]) (copy ??= [...value])[i] = stored;
    }
    return (copy ?? value) as T;
  }
  if (value === null || typeof value !== "object" || value instanceof Date) return value;
  const record = value as Record<string, unknown>;
  let copy: Record<string, unknown> | undefined;
  for (const key of Object.keys(record)) {
    const stored = storableDeep(record[key]);
    const storedKey = storableText(key);
    if (storedKey !== key) {
      copy ??= { ...record };
      delete copy[key];
      copy[storedKey] = stored;
    } else if (stored !== record[key]) (copy ??= { ...record })[key] = stored;
  }
  return (copy ?? value) as T;
}
