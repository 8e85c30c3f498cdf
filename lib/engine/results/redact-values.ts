import { REDACTED, redactDeepWith, redactSecrets } from "./redact-secrets";

// The shapes of redact-secrets.ts miss a key that looks like nothing known (a
// gateway's, a local server's), and an endpoint that answers 401 "Incorrect
// API key provided: <key>" puts it in the result's reason. So the secrets this
// process holds and sends (the judge's keys, every declared provider's key, the
// dashboard's password and token) are also removed by value, in the forms a
// reply may carry them: as sent, JSON-escaped (`\u002d`, `\"`), and
// percent-encoded (`sk%2Dant%2D...`, any mix, either case of hex). The engine
// reads no environment: the values come from the edge (lib/env's
// secretValues) through the run's deps.

/** Shorter values are not looked for: a placeholder key ("none", "ollama") would blank ordinary words. */
export const MIN_SECRET_LENGTH = 8;

export interface Redactor {
  /** `text` without the known secrets' values (any encoding) and without anything shaped like a credential. */
  text(text: string): string;
  /** Any JSON-like value with every string redacted as `text` does; the input is never changed. */
  deep<T>(value: T): T;
}

const hexPair = (byte: number) =>
  byte
    .toString(16)
    .padStart(2, "0")
    .replace(/[a-f]/g, (d) => `[${d}${d.toUpperCase()}]`);

const escapeLiteral = (char: string) => char.replace(/[\\^$.*+?()[\]{}|/-]/g, "\\$&");

/** Every way one character of a secret may be written in a reply. */
function charForms(char: string): string {
  const forms = [escapeLiteral(char)];
  const bytes = new TextEncoder().encode(char);
  forms.push(Array.from(bytes, (b) => `%${hexPair(b)}`).join(""));
  const code = char.codePointAt(0)!;
  if (code <= 0xffff) {
    forms.push(`\\\\u${hexPair(code >> 8)}${hexPair(code & 0xff)}`);
    if (char === '"' || char === "\\" || char === "/") forms.push(`\\\\${escapeLiteral(char)}`);
  }
  return `(?:${forms.join("|")})`;
}

// Every encoded form has a `%XX` or a backslash in it; text with neither (most
// of a report) can hold a secret only as sent, which `includes` finds ~4 times
// faster than the pattern of every form.
const MAY_BE_ENCODED = /%[0-9A-Fa-f]{2}|\\/;

/** Strings up to this length are remembered with their redaction: the few a report repeats on every result. */
const MEMO_MAX_LENGTH = 256;
const MEMO_SIZE = 4096;

/**
 * `redact` of each short string once: every result of a run repeats the same
 * criterion names and descriptions, models, statuses and (often) reasons, and
 * scanning them again for every result was a large part of a judge call's own CPU.
 */
function remembered(redact: (text: string) => string): (text: string) => string {
  const seen = new Map<string, string>();
  return (text) => {
    if (text.length > MEMO_MAX_LENGTH) return redact(text);
    let out = seen.get(text);
    if (out === undefined) {
      out = redact(text);
      if (seen.size >= MEMO_SIZE) seen.clear();
      seen.set(text, out);
    }
    return out;
  };
}

export function createRedactor(secrets: readonly string[] = []): Redactor {
  // Longest first, so that a secret containing another goes whole.
  const wanted = [...new Set(secrets.filter((s) => s.length >= MIN_SECRET_LENGTH))].sort(
    (a, b) => b.length - a.length,
  );
  if (wanted.length === 0) {
    const deepText = remembered(redactSecrets);
    return { text: redactSecrets, deep: (value) => redactDeepWith(value, deepText) };
  }
  const source = wanted.map((secret) => Array.from(secret, charForms).join("")).join("|");
  // eslint-disable-next-line no-restricted-syntax -- every character of the values is escaped above: literals and fixed escapes, no data as syntax.
  const pattern = new RegExp(source, "g");
  const text = (input: string) => {
    let out = input;
    if (MAY_BE_ENCODED.test(out)) out = out.replace(pattern, REDACTED);
    else
      for (const secret of wanted) if (out.includes(secret)) out = out.replaceAll(secret, REDACTED);
    return redactSecrets(out);
  };
  const deepText = remembered(text);
  return { text, deep: (value) => redactDeepWith(value, deepText) };
}
