import {
  isMap,
  isScalar,
  isSeq,
  parseDocument,
  type Document,
  type Node,
  type YAMLMap,
} from "yaml";
import type { SuiteConfig } from "./types";

// "Add as anchor": a person's label written into the suite as a new
// `examples:` entry of its criterion. The text is spliced, not re-printed: the
// Document API finds where the criterion (or its examples) sits, and one
// entry is inserted there in the file's own style (a block list gets a line,
// a flow map or list gets `, ...`), so every comment, quote and blank line of
// the file stays as it was and the diff is that entry alone. Entries go right
// after the text of the last item or pair, never after a comment. Whether the
// result still loads, and holds the new anchor, is the caller's to check
// (`anchorIsIn`; the dashboard loads suites on a worker thread).

export type AddAnchorResult = { ok: true; yaml: string } | { ok: false; message: string };

const nameOf = (node: unknown): string | undefined =>
  isMap(node) ? String((node.get("name") as unknown) ?? "") : undefined;

function criterionNode(doc: Document, evalName: string, criterion: string): YAMLMap | string {
  const evals = doc.get("evals", true);
  if (!isSeq(evals)) return "the suite has no evals: list";
  const evalNode = evals.items.find((e) => nameOf(e) === evalName);
  if (!isMap(evalNode)) return `no eval named "${evalName}" in the suite's newest version`;
  let rubric = evalNode.get("rubric", true) as unknown;
  if (isMap(rubric) && rubric.has("ref"))
    rubric = doc.getIn(["rubrics", String(rubric.get("ref") as unknown)], true);
  const criteria = isMap(rubric) ? rubric.get("criteria", true) : undefined;
  if (!isSeq(criteria))
    return `eval "${evalName}" has no criteria written in this file to anchor (a free-form, tree, category or preset rubric)`;
  const found = criteria.items.find((c) => nameOf(c) === criterion);
  return isMap(found)
    ? found
    : `eval "${evalName}" has no criterion named "${criterion}" in the suite's newest version`;
}

/** The end of the line a node's text ends on (a block node's range runs on over the newline after it). */
const lineEndOf = (text: string, range: [number, number, number]) => {
  let at = range[1];
  while (at > range[0] && /\s/.test(text[at - 1]!)) at--;
  const i = text.indexOf("\n", at);
  return i < 0 ? text.length : i;
};
const columnOf = (text: string, at: number) => at - (text.lastIndexOf("\n", at - 1) + 1);
const splice = (text: string, at: number, insert: string) =>
  text.slice(0, at) + insert + text.slice(at);

/** An anchor's score as the file writes it ("0.0", "1", ".5"), if it is a plain number. */
function scoreText(text: string, anchor: YAMLMap): string | undefined {
  const score = anchor.get("score", true) as unknown;
  if (!isScalar(score) || !score.range) return undefined;
  const written = text.slice(score.range[0], score.range[1]).trim();
  return /^-?\d*\.?\d+$/.test(written) ? written : undefined;
}

/**
 * The new score in the style of the anchors already there: as many decimals as theirs (0.0, 1.0),
 * more only where it needs them (0.75).
 */
function styledScore(score: number, written: (string | undefined)[]): string {
  const own = Number(score.toFixed(2));
  const style = written.find((w) => w !== undefined);
  if (style === undefined) return String(own);
  const decimals = (s: string) => (s.split(".")[1] ?? "").length;
  return own.toFixed(Math.max(decimals(style), decimals(String(own))));
}

/** The suite text with one anchor added to `criterion` of `evalName`, or why it cannot be. */
export function addAnchor(input: {
  yaml: string;
  evalName: string;
  criterion: string;
  response: string;
  score: number;
}): AddAnchorResult {
  if (!(input.score >= 0 && input.score <= 1))
    return { ok: false, message: "an anchor's score is between 0 and 1" };
  const doc = parseDocument(input.yaml);
  if (doc.errors.length)
    return {
      ok: false,
      message: `the suite's newest version does not parse: ${doc.errors[0]!.message}`,
    };
  const node = criterionNode(doc, input.evalName, input.criterion);
  if (typeof node === "string") return { ok: false, message: node };
  const text = input.yaml;
  const examples = node.get("examples", true) as Node | undefined;
  const existing = isSeq(examples) ? examples.items.filter(isMap) : [];
  const same = existing.find(
    (e) => String((e.get("response") as unknown) ?? "") === input.response,
  );
  if (same)
    return {
      ok: false,
      message: `already an anchor of "${input.criterion}": the same response is there with score ${scoreText(text, same) ?? String(same.get("score") as unknown)}`,
    };
  const entry = `{ response: ${JSON.stringify(input.response)}, score: ${styledScore(
    input.score,
    existing.map((e) => scoreText(text, e)),
  )} }`;
  const range = (n: Node | YAMLMap) => n.range! as [number, number, number];
  let yaml: string;
  if (isSeq(examples) && !examples.flow && examples.items.length > 0) {
    const last = examples.items.at(-1) as Node;
    const dash = text.lastIndexOf("-", range(last)[0]);
    yaml = splice(
      text,
      lineEndOf(text, range(last)),
      `\n${" ".repeat(columnOf(text, dash))}- ${entry}`,
    );
  } else if (isSeq(examples) || (isScalar(examples) && examples.value === null)) {
    // A flow list `[...]`, or `examples:` with nothing after it.
    if (isSeq(examples)) {
      // Right after the last item's own text (a comment after it may hold a `]`); an empty list at its `]`.
      const last = examples.items.at(-1) as Node | undefined;
      yaml = last
        ? splice(text, range(last)[1], `, ${entry}`)
        : splice(text, text.lastIndexOf("]", range(examples)[1]), entry);
    } else yaml = splice(text, range(examples)[0], ` [${entry}]`);
  } else if (examples !== undefined) {
    return {
      ok: false,
      message: `criterion "${input.criterion}" has examples that are not a list`,
    };
  } else if (node.flow) {
    // Right after the last pair's own text, found by the YAML's structure: the
    // text before the closing `}` may end in a comment (which may hold a `}`),
    // and an entry written there would be part of the comment.
    const pair = node.items.at(-1)!;
    const end = ((pair.value ?? pair.key) as Node).range![1];
    yaml = splice(text, end, `, examples: [${entry}]`);
  } else {
    const firstKey = node.items[0]!.key as Node;
    const indent = " ".repeat(columnOf(text, range(firstKey)[0]));
    yaml = splice(
      text,
      lineEndOf(text, range(node)),
      `\n${indent}examples:\n${indent}  - ${entry}`,
    );
  }
  // The caller checks that the result still loads (at most so many anchors per criterion...), where it loads suites.
  return { ok: true, yaml };
}

/** Whether a loaded suite holds the anchor: what "Add as anchor" checks before it answers that the anchor was added. */
export function anchorIsIn(input: {
  suite: SuiteConfig;
  evalName: string;
  criterion: string;
  response: string;
  score: number;
}): boolean {
  const rubric = input.suite.evals.find((e) => e.name === input.evalName)?.rubric;
  if (rubric?.kind !== "criteria") return false;
  const criterion = rubric.criteria.find((c) => c.name === input.criterion);
  // The score is written to two decimals (styledScore).
  return (criterion?.examples ?? []).some(
    (a) => a.response === input.response && Math.abs(a.score - input.score) <= 0.005 + 1e-9,
  );
}
