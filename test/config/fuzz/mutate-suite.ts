// Seeded mutations of real suites, for the loader fuzz test: what a person
// typing in the editor, a bad merge or a hostile client produces. The same
// seed gives the same cases, so a failure is reproducible from its number.

export { seededRandom } from "../../../lib/stats/bootstrap";

export type Random = () => number;

const pick = <T>(random: Random, items: readonly T[]): T =>
  items[Math.floor(random() * items.length)]!;
const int = (random: Random, min: number, max: number) =>
  min + Math.floor(random() * (max - min + 1));

const HUGE_NUMBERS = [
  "99999999",
  "1e308",
  "1e309",
  "-1",
  "0",
  "9007199254740993",
  "-99999999",
  ".inf",
  "-.inf",
  ".nan",
  "0.5",
  "1.5",
  "0x7fffffff",
  "1_000_000",
];
const ODD_VALUES = [
  "null",
  "~",
  "true",
  "[]",
  "{}",
  "[a, b]",
  "{ a: 1 }",
  '""',
  "''",
  "-",
  "? x",
  "|",
  ">-",
  "&a x",
  "*nowhere",
  "!!binary aGk=",
  "!!set { a, b }",
  "!!omap [ a: 1 ]",
  "!custom x",
  "!!timestamp 2001-12-14",
  '!!int "12"',
  "!!str 12",
  "!!map {}",
  "!!seq []",
  "!!float x",
  "!<tag:x> y",
  "<<: *a",
];
const ODD_CHARACTERS = [
  "\t",
  "\0",
  "\ud800",
  "\udc00",
  "\uFEFF",
  "\r\n",
  "\r",
  ":",
  "- ",
  "{",
  "}",
  "[",
  "]",
  '"',
  "'",
  "#",
  "&",
  "*",
  "!",
  "%YAML 1.1\n---\n",
  "---\n",
  "...\n",
  "\u2028",
  "\uD800",
  "\u202E",
  "\u2066",
  "\u0007",
  "\u001B[2J",
];

/** Keys whose values the language bounds, with values far past the bounds. */
const BOUNDED_FIELDS = [
  () => "judge: { jury: { size: 99999999 } }",
  () => "judge: { jury: { size: 25 }, panel: [a, b, c, d, e, f, g, h, i, j] }",
  (random: Random) =>
    `matrix: { models: [${Array.from({ length: int(random, 1, 60) }, (_, i) => `m${i}`).join(", ")}], prompts: [${Array.from({ length: int(random, 1, 60) }, (_, i) => `p${i}`).join(", ")}] }`,
  (random: Random) =>
    `matrix: { agents: [${Array.from({ length: int(random, 1, 60) }, (_, i) => `a${i}`).join(", ")}] }`,
  () =>
    "agent: { max_turns: 99999999, max_tokens: 99999999, timeout_seconds: 1e308, max_result_chars: 99999999999 }",
  (random: Random) =>
    `rubric: { criteria: [${Array.from({ length: int(random, 1, 120) }, (_, i) => `{ name: c${i}, description: d }`).join(", ")}] }`,
  (random: Random) => `candidates: { dataset: d${int(random, 0, 2)} }`,
  (random: Random) =>
    `compare: { items: [${Array.from({ length: int(random, 1, 30) }, () => "{ output_a: x, output_b: y }").join(", ")}] }`,
  () =>
    "rubric: { tree: { ask: q, yes: { ask: q, yes: { score: 1 }, no: { score: 0 } }, no: { score: 0 } } }",
  () => "threshold: 1e-400",
];

/** Likert bands, most far past the bound: each point is per-point work in calibration and labelling. */
const LIKERT_MAXES = [5, 100, 101, 3_000, 30_000, 3_000_000, 100_000_000];
const WEIGHTS = ["1e308", "1e6", "1000001", "0.5"];

/** Sizes of the heavy mutations: the in-suite run keeps them small, so that thousands of cases take seconds. */
export interface Sizes {
  datasetItems: readonly number[];
  stringChars: readonly number[];
}

export const FULL_SIZES: Sizes = {
  datasetItems: [0, 1, 3, 200, 4000, 12000],
  stringChars: [201, 5_000, 100_000, 1_000_000, 2_200_000],
};
export const QUICK_SIZES: Sizes = {
  datasetItems: [0, 1, 3, 20, 200],
  stringChars: [201, 5_000, 50_000],
};

function datasetBlock(random: Random, sizes: Sizes): string {
  const count = pick(random, sizes.datasetItems);
  const items = Array.from(
    { length: count },
    (_, i) => `      - { id: i${i}, input: in, expected_output: out }`,
  );
  return [`datasets:`, `  d${int(random, 0, 2)}:`, "    items:", ...items].join("\n");
}

function aliasBomb(random: Random): string {
  const width = int(random, 2, 10);
  const levels = int(random, 2, 12);
  const lines = [`l0: &l0 [${Array(width).fill('"lol"').join(", ")}]`];
  for (let i = 1; i < levels; i++)
    lines.push(
      `l${i}: &l${i} [${Array(width)
        .fill(`*l${i - 1}`)
        .join(", ")}]`,
    );
  return lines.join("\n");
}

function deepValue(random: Random): string {
  const depth = pick(random, [10, 63, 64, 65, 200, 5000, 50000]);
  if (random() < 0.5) return `${"[".repeat(depth)}${"]".repeat(depth)}`;
  return `${"{a: ".repeat(depth)}1${"}".repeat(depth)}`;
}

function deepBlock(random: Random): string {
  const depth = pick(random, [30, 64, 70, 500]);
  return Array.from({ length: depth }, (_, i) => `${"  ".repeat(i)}k${i}:`).join("\n") + " 1";
}

function longString(random: Random, sizes: Sizes): string {
  return `"${"x".repeat(pick(random, sizes.stringChars))}"`;
}

const KEY_VALUE = /^(\s*(?:- )?[\w-]+:)(\s.*)?$/;

function replaceValue(lines: string[], random: Random, value: string): void {
  const candidates = lines.map((line, i) => (KEY_VALUE.test(line) ? i : -1)).filter((i) => i >= 0);
  if (candidates.length === 0) return;
  const at = pick(random, candidates);
  lines[at] = lines[at]!.replace(KEY_VALUE, (_, key: string) => `${key} ${value}`);
}

type Mutation = (
  lines: string[],
  random: Random,
  context: { seeds: readonly string[]; sizes: Sizes },
) => void;

const MUTATIONS: Mutation[] = [
  function deleteLine(lines, random) {
    if (lines.length > 0) lines.splice(int(random, 0, lines.length - 1), 1);
  },
  function duplicateLine(lines, random) {
    if (lines.length === 0) return;
    const at = int(random, 0, lines.length - 1);
    lines.splice(at, 0, ...Array(pick(random, [1, 1, 2, 50])).fill(lines[at]!));
  },
  function reindent(lines, random) {
    if (lines.length === 0) return;
    const at = int(random, 0, lines.length - 1);
    const shift = int(random, -4, 4);
    lines[at] =
      shift >= 0
        ? `${" ".repeat(shift)}${lines[at]}`
        : lines[at]!.replace(new RegExp(`^ {0,${-shift}}`), "");
  },
  function swapType(lines, random) {
    replaceValue(lines, random, pick(random, ODD_VALUES));
  },
  function hugeNumber(lines, random) {
    replaceValue(lines, random, pick(random, HUGE_NUMBERS));
  },
  function boundedField(lines, random) {
    const evals = lines.map((line, i) => (/^\s*- name:/.test(line) ? i : -1)).filter((i) => i >= 0);
    if (evals.length === 0) return;
    const at = pick(random, evals);
    const indent = lines[at]!.indexOf("-") + 2;
    lines.splice(at + 1, 0, `${" ".repeat(indent)}${pick(random, BOUNDED_FIELDS)(random)}`);
  },
  function ruleNumbers(lines, random) {
    // Into a block rubric: a likert band or a weight, where a number drives work or sums.
    const rubrics = lines.map((line, i) => (/^\s*rubric:\s*$/.test(line) ? i : -1));
    const at = pick(random, [...rubrics.filter((i) => i >= 0), -1]);
    if (at < 0) return;
    const indent = " ".repeat(lines[at]!.indexOf("r") + 2);
    lines.splice(
      at + 1,
      0,
      random() < 0.7
        ? `${indent}scale: { likert: { min: ${int(random, -2, 1)}, max: ${pick(random, LIKERT_MAXES)} } }`
        : `${indent}criteria: [{ name: w, description: d, weight: ${pick(random, WEIGHTS)} }]`,
    );
  },
  function dataset(lines, random, { sizes }) {
    lines.unshift(...datasetBlock(random, sizes).split("\n"));
  },
  function alias(lines, random) {
    const candidates = lines
      .map((line, i) => (KEY_VALUE.test(line) ? i : -1))
      .filter((i) => i >= 0);
    if (candidates.length < 2) return;
    const [a, b] = [pick(random, candidates), pick(random, candidates)];
    lines[a] = lines[a]!.replace(
      KEY_VALUE,
      (_, key: string, value?: string) => `${key} &x${value ?? ""}`,
    );
    lines[b] = lines[b]!.replace(KEY_VALUE, (_, key: string) => `${key} *x`);
  },
  function forwardAlias(lines, random) {
    replaceValue(lines, random, "*later");
    lines.push('later: &later "hi"');
  },
  function bomb(lines, random) {
    lines.unshift(...aliasBomb(random).split("\n"));
    replaceValue(lines, random, `*l${int(random, 0, 11)}`);
  },
  function deepNesting(lines, random) {
    if (random() < 0.5) replaceValue(lines, random, deepValue(random));
    else lines.splice(int(random, 0, lines.length), 0, ...deepBlock(random).split("\n"));
  },
  function longValue(lines, random, { sizes }) {
    replaceValue(lines, random, longString(random, sizes));
  },
  function oddCharacter(lines, random) {
    if (lines.length === 0) return;
    const at = int(random, 0, lines.length - 1);
    const line = lines[at]!;
    const column = int(random, 0, line.length);
    lines[at] = `${line.slice(0, column)}${pick(random, ODD_CHARACTERS)}${line.slice(column)}`;
  },
  // What Postgres text cannot hold, as YAML lets it in: a double-quoted escape (the loader must refuse it, at the value).
  function unstorableEscape(lines, random) {
    replaceValue(
      lines,
      random,
      `"x${pick(random, ["\\0", "\\x00", "\\u0000", "\\ud800", "\\udfff"])}y"`,
    );
  },
  function splice(lines, random, { seeds }) {
    const other = pick(random, seeds).split("\n");
    const from = int(random, 0, other.length - 1);
    lines.splice(int(random, 0, lines.length), 0, ...other.slice(from, from + int(random, 1, 12)));
  },
  function truncate(lines, random) {
    lines.length = int(random, 0, lines.length);
  },
];

/** One fuzz case: a seed suite with one to four mutations. */
export function mutateSuite(input: {
  seeds: readonly string[];
  random: Random;
  sizes: Sizes;
}): string {
  const { seeds, random, sizes } = input;
  const lines = pick(random, seeds).split("\n");
  // Mostly one mutation, so that a good share of cases still load and reach the plan step.
  const count = pick(random, [1, 1, 1, 2, 2, 3, 4]);
  for (let i = 0; i < count; i++) pick(random, MUTATIONS)(lines, random, { seeds, sizes });
  return lines.join("\n");
}
