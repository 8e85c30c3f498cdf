import {
  Composer,
  isMap,
  isPair,
  isScalar,
  isSeq,
  LineCounter,
  Parser,
  type CST,
  type Document,
  type Node,
} from "yaml";
import type { ConfigIssue } from "./types";
import { LIMITS, formatCount } from "./limits";
import { TOO_DEEP, checkTokenDepth, checkYamlShape } from "./yaml-shape";
import { fastParseYaml, type FastNode } from "./yaml-fast-path";

// Keeps the parsed YAML document so that any path in the data can be turned
// back into the line and column a person typed it at.

export type DataPath = (string | number)[];

export interface YamlLocator {
  doc: Document;
  /** Position of the value at `path`, or of its deepest existing ancestor. */
  locate(path: DataPath): { line: number; column: number };
  /** Position of the key `key` in the map at `path` (for an unknown field). */
  locateKey(path: DataPath, key: string): { line: number; column: number };
}

export type ParsedYaml =
  { ok: true; data: unknown; locator: YamlLocator } | { ok: false; issues: ConfigIssue[] };

/** Line and column of a character offset, without parsing (for text too large to parse). */
function positionIn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf("\n"); i !== -1 && i < offset; i = text.indexOf("\n", i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, column: offset - lineStart + 1 };
}

/** Syntax errors past this many are not worth composing the document for. */
const MAX_SYNTAX_ERRORS = 50;

const STACK_EXHAUSTED = /Maximum call stack size exceeded|too much recursion/i;

export function parseYaml(text: string, file: string): ParsedYaml {
  if (text.length > LIMITS.suiteChars) {
    return {
      ok: false,
      issues: [
        {
          file,
          ...positionIn(text, LIMITS.suiteChars),
          path: [],
          message: `the suite is longer than ${formatCount(LIMITS.suiteChars)} characters; move large data into a dataset or document file`,
          severity: "error",
        },
      ],
    };
  }
  const fast = fastParseYaml(text);
  if (!fast) return parseWithYaml(text, file);
  // The `yaml` document is built only if something asks for it: a position
  // the fast path does not know, or the document itself (an editor feature).
  let full: YamlLocator | undefined;
  const slow = (): YamlLocator => {
    if (!full) {
      const parsed = parseWithYaml(text, file);
      // Cannot happen (the test of this file proves both parsers accept the same text); still an answer, not a crash.
      if (!parsed.ok)
        throw new Error(
          `the yaml package rejects what js-yaml read: ${parsed.issues[0]?.message ?? "no issue"}`,
        );
      full = parsed.locator;
    }
    return full;
  };
  const position = positionsIn(text);
  const tree: PositionTree<FastNode> = {
    root: fast.root,
    child: (node, segment) =>
      node.kind === "map"
        ? (node.keys.get(String(segment))?.value ?? null)
        : node.kind === "seq" && typeof segment === "number"
          ? (node.items[segment] ?? null)
          : null,
    start: (node) => node.start,
    keyStart: (node, key) => (node.kind === "map" ? node.keys.get(key)?.keyStart : undefined),
    isMap: (node) => node.kind === "map",
  };
  const fastLocator = locatorOver(tree, position);
  return {
    ok: true,
    data: fast.data,
    locator: {
      get doc() {
        return slow().doc;
      },
      locate: (path) => fastLocator.locate(path) ?? slow().locate(path),
      locateKey: (path, key) => fastLocator.locateKey(path, key) ?? slow().locateKey(path, key),
    },
  };
}

/** Line and column (both from 1) of any offset in `text`, by a binary search over its line starts. */
export function positionsIn(text: string): (offset: number) => { line: number; column: number } {
  const starts = [0];
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) starts.push(i + 1);
  return (offset) => {
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (starts[mid]! <= offset) low = mid;
      else high = mid - 1;
    }
    return { line: low + 1, column: offset - starts[low]! + 1 };
  };
}

/** The parts of a parsed document that locating a path needs. */
interface PositionTree<N> {
  root: N | null;
  /** The value node at a key or index; null when there is none (or the key has no value node). */
  child(node: N, segment: string | number): N | null;
  /** Undefined: this tree does not know it (the fast path's block scalars and empty values). */
  start(node: N): number | undefined;
  /** The start of the key `key` of a map, if it has that key. */
  keyStart(node: N, key: string): number | undefined;
  isMap(node: N): boolean;
}

/**
 * `locate` and `locateKey` over either parser's tree. Each answers undefined
 * when a position it needs is not known (the fast path's block scalars and
 * empty values), so that the caller can ask the `yaml` path.
 */
function locatorOver<N>(
  tree: PositionTree<N>,
  position: (offset: number) => { line: number; column: number },
) {
  const nodeAt = (path: DataPath): N | null => {
    let node = tree.root;
    for (const segment of path) {
      if (node === null) return null;
      node = tree.child(node, segment);
    }
    return node;
  };
  const locate = (path: DataPath): { line: number; column: number } | undefined => {
    for (let depth = path.length; depth >= 0; depth--) {
      const node = nodeAt(path.slice(0, depth));
      if (node === null) continue;
      // A missing value of a present key: point at the key, not the parent.
      const keyStart =
        depth < path.length && tree.isMap(node)
          ? tree.keyStart(node, String(path[depth]))
          : undefined;
      if (keyStart !== undefined) return position(keyStart);
      const start = tree.start(node);
      return start === undefined ? undefined : position(start);
    }
    return { line: 1, column: 1 };
  };
  const locateKey = (path: DataPath, key: string): { line: number; column: number } | undefined => {
    const node = nodeAt(path);
    const keyStart = node !== null && tree.isMap(node) ? tree.keyStart(node, key) : undefined;
    return keyStart !== undefined ? position(keyStart) : locate(path);
  };
  return { locate, locateKey };
}

/**
 * The `yaml` package's parse, the loader of record: every syntax error and
 * shape problem located, and the document kept. parseYaml uses it when the
 * fast path declines; exported for the test that holds the two to the same answers.
 */
export function parseWithYaml(text: string, file: string): ParsedYaml {
  const issue = (at: { line: number; column: number }, message: string): ParsedYaml => ({
    ok: false,
    issues: [{ file, ...at, path: [], message, severity: "error" }],
  });
  const lineCounter = new LineCounter();
  const position = (offset: number) => {
    const pos = lineCounter.linePos(offset);
    return { line: pos.line, column: pos.col };
  };
  let doc: Document;
  try {
    // What parseDocument does, in two steps, so that nesting is measured
    // on the parser's tokens before the (recursive) composer sees them.
    const tokens = [...new Parser(lineCounter.addNewLine).parse(text)];
    const tooDeep = checkTokenDepth(tokens);
    if (tooDeep) return issue(position(tooDeep.offset), `YAML error: ${tooDeep.message}`);
    // A file that is mostly errors (binary, or broken at the top) is reported by its first ones,
    // without composing it all.
    const errors = tokens.filter((token): token is CST.ErrorToken => token.type === "error");
    if (errors.length > MAX_SYNTAX_ERRORS) {
      return {
        ok: false,
        issues: errors.slice(0, MAX_SYNTAX_ERRORS).map((token) => ({
          file,
          ...position(token.offset),
          path: [],
          message: `YAML syntax error: ${token.message}`,
          severity: "error" as const,
        })),
      };
    }
    const composed = [...new Composer({ uniqueKeys: true }).compose(tokens, true, text.length)];
    doc = composed[0]!;
    if (composed.length > 1)
      return issue(
        position(composed[1]!.range[0]),
        "YAML syntax error: a suite is one YAML document; remove the second ---",
      );
  } catch (error) {
    // The yaml package reports what it can as errors; anything it throws is still this file's problem.
    return issue(
      { line: 1, column: 1 },
      `YAML syntax error: ${STACK_EXHAUSTED.test(String(error)) ? TOO_DEEP : (error as Error).message}`,
    );
  }
  if (doc.errors.length > 0) {
    return {
      ok: false,
      issues: doc.errors.map((error) => {
        const message = STACK_EXHAUSTED.test(error.message) ? TOO_DEEP : error.message;
        return {
          file,
          ...position(error.pos[0]),
          path: [],
          message: `YAML syntax error: ${message}`,
          severity: "error" as const,
        };
      }),
    };
  }

  const shape = checkYamlShape(doc);
  if (shape) return issue(position(shape.offset), `YAML error: ${shape.message}`);
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: LIMITS.aliasExpansion });
  } catch (error) {
    // checkYamlShape found what toJS would throw on; this is the net under it.
    return issue({ line: 1, column: 1 }, `YAML error: ${(error as Error).message}`);
  }

  const pairOf = (node: Node, key: string) =>
    isMap(node)
      ? node.items.find(
          (item) => isPair(item) && isScalar(item.key) && String(item.key.value) === key,
        )
      : undefined;
  const tree: PositionTree<Node> = {
    root: (doc.contents as Node | null) ?? null,
    child: (node, segment) => {
      const value = isMap(node)
        ? pairOf(node, String(segment))?.value
        : isSeq(node) && typeof segment === "number"
          ? node.items[segment]
          : undefined;
      return (value as Node | null | undefined) ?? null;
    },
    start: (node) => node.range?.[0],
    keyStart: (node, key) => {
      const pair = pairOf(node, key);
      return pair && isScalar(pair.key) ? pair.key.range?.[0] : undefined;
    },
    isMap: (node) => isMap(node),
  };
  const located = locatorOver(tree, position);
  // Every node the composer made has its range: these always answer.
  const locate = (path: DataPath) => located.locate(path) ?? { line: 1, column: 1 };
  const locateKey = (path: DataPath, key: string) => located.locateKey(path, key) ?? locate(path);

  return { ok: true, data, locator: { doc, locate, locateKey } };
}
