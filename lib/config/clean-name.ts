// Names people read and pick by (a reviewer, a suite, an eval, a criterion)
// in one normal form, wherever they come from (a browser, a file path, a
// suite's YAML): no control characters, no bidirectional controls (U+202E
// RIGHT-TO-LEFT OVERRIDE makes "exe.txt" read as "txt.exe"), no lone
// surrogates, and a cut that counts code points, so an emoji is never split
// into U+FFFD. Joiners (U+200D) stay: emoji sequences are made of them.

/** C0 and C1 controls, the bidirectional marks, embeddings, overrides and isolates, and lone surrogates. */
const UNSAFE = /[\p{Cc}\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069\p{Cs}]/gu;
const WHITESPACE = /\s/;

/**
 * A name as it is stored: unsafe characters out (a tab or line break becomes
 * a space), runs of white space one space, trimmed, and at most `maxChars`
 * code points. Empty when nothing is left.
 */
export function cleanName(raw: string, maxChars: number = Number.POSITIVE_INFINITY): string {
  const safe = raw
    .replace(UNSAFE, (c) => (WHITESPACE.test(c) ? " " : ""))
    .replace(/\s+/g, " ")
    .trim();
  if (safe.length <= maxChars) return safe;
  // Counted in code points: a cut inside a surrogate pair would leave half an emoji.
  return Array.from(safe).slice(0, maxChars).join("").trimEnd();
}

/** Code points in a string (what a person counts), not UTF-16 units. */
export function codePointLength(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

/** Why a name given in a suite cannot be used as it is, or undefined: the first unsafe character, named. */
export function nameProblem(name: string): string | undefined {
  // search() ignores the global flag and lastIndex.
  const at = name.search(UNSAFE);
  if (at < 0) return undefined;
  const unit = name.charCodeAt(at);
  const code = unit.toString(16).toUpperCase().padStart(4, "0");
  const kind =
    unit >= 0xd800 && unit <= 0xdfff
      ? "half of a surrogate pair"
      : unit < 0x20 || (unit >= 0x7f && unit <= 0x9f)
        ? "a control character"
        : "a bidirectional control";
  return `a name may not contain ${kind} (U+${code} at character ${codePointLength(name.slice(0, at)) + 1})`;
}
