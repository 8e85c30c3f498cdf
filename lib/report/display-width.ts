// Terminal columns a text takes, for the pretty reporter's aligned columns:
// String.length counts UTF-16 units, so an accent written as a combining mark
// counts twice, an emoji two or more, and a CJK character one where the
// terminal draws two; columns padded by length drift. Counted per grapheme
// (Intl.Segmenter): wide (East Asian Wide and Fullwidth, emoji) is 2, a
// control or zero-width character 0, anything else 1.

const segmenter = new Intl.Segmenter("en", { granularity: "grapheme" });

const WIDE: readonly [number, number][] = [
  [0x1100, 0x115f],
  [0x231a, 0x231b],
  [0x2329, 0x232a],
  [0x23e9, 0x23ec],
  [0x2e80, 0x303e],
  [0x3041, 0x33ff],
  [0x3400, 0x4dbf],
  [0x4e00, 0x9fff],
  [0xa000, 0xa4cf],
  [0xa960, 0xa97f],
  [0xac00, 0xd7a3],
  [0xf900, 0xfaff],
  [0xfe10, 0xfe19],
  [0xfe30, 0xfe6f],
  [0xff00, 0xff60],
  [0xffe0, 0xffe6],
  [0x1f300, 0x1f64f],
  [0x1f900, 0x1f9ff],
  [0x20000, 0x3fffd],
];

const ZERO = /^[\p{Cc}\p{Cf}\p{Mn}\p{Me}]+$/u;
const EMOJI = /\p{Extended_Pictographic}\uFE0F|\p{Emoji_Presentation}/u;

function graphemeWidth(grapheme: string): number {
  if (ZERO.test(grapheme)) return 0;
  if (EMOJI.test(grapheme)) return 2;
  const code = grapheme.codePointAt(0)!;
  return WIDE.some(([from, to]) => code >= from && code <= to) ? 2 : 1;
}

/** The columns `text` takes in a terminal. */
export function displayWidth(text: string): number {
  let width = 0;
  for (const { segment } of segmenter.segment(text)) width += graphemeWidth(segment);
  return width;
}

/** The first graphemes of `text` that take at most `width` columns, and the columns they take. */
function headOf(text: string, width: number): { text: string; used: number } {
  let out = "";
  let used = 0;
  for (const { segment } of segmenter.segment(text)) {
    const w = graphemeWidth(segment);
    if (used + w > width) break;
    out += segment;
    used += w;
  }
  return { text: out, used };
}

/** The last graphemes of `text` that take at most `width` columns, and the columns they take. */
function tailOf(text: string, width: number): { text: string; used: number } {
  const graphemes = [...segmenter.segment(text)].map((s) => s.segment);
  let out = "";
  let used = 0;
  for (let i = graphemes.length - 1; i >= 0; i--) {
    const w = graphemeWidth(graphemes[i]!);
    if (used + w > width) break;
    out = graphemes[i]! + out;
    used += w;
  }
  return { text: out, used };
}

/**
 * `text` in exactly `width` columns: padded with spaces, or cut in the middle with "…" so that
 * both ends show. The end is what tells a matrix's cells apart (`name [item=x, model=y]`): a
 * trailing `[...]` is kept whole when it leaves room for a few columns of the name.
 */
export function fitWidth(text: string, width: number): string {
  const full = displayWidth(text);
  if (full <= width) return text + " ".repeat(width - full);
  const bracket = text.lastIndexOf(" [");
  const suffix = bracket > 0 && text.endsWith("]") ? text.slice(bracket) : "";
  const tailWidth =
    suffix && displayWidth(suffix) <= width - 9
      ? displayWidth(suffix)
      : Math.floor((width - 1) / 2);
  const tail = tailOf(text, tailWidth);
  const head = headOf(text, width - 1 - tail.used);
  return `${head.text}…${tail.text}${" ".repeat(width - 1 - head.used - tail.used)}`;
}

/** `text` padded with spaces to at least `width` columns (never cut). */
export function padWidth(text: string, width: number): string {
  return text + " ".repeat(Math.max(0, width - displayWidth(text)));
}
