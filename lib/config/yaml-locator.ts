import { Composer, isMap, isPair, isScalar, isSeq, LineCounter, Parser, type CST, type Document, type Node } from "yaml";
import type { ConfigIssue } from "./types";
import { LIMITS, formatCount } from "./limits";
import { TOO_DEEP, checkTokenDepth, checkYamlShape } from "./yaml-shape";

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
  | { ok: true; data: unknown; locator: YamlLocator }
  | { ok: false; issues: ConfigIssue[] };

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
  const issue = (at: { line: number; column: number }, message: string): ParsedYaml => ({ ok: false, issues: [{ file, ...at, path: [], message, severity: "error" }] });
  if (text.length > LIMITS.suiteChars) {
    return issue(positionIn(text, LIMITS.suiteChars), `the suite is longer than ${formatCount(LIMITS.suiteChars)} characters; move large data into a dataset or document file`);
  }
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
    // A file that is mostly errors (binary, or broken at the top) is reported by its first ones, without composing it all.
    const errors = tokens.filter((token): token is CST.ErrorToken => token.type === "error");
    if (errors.length > MAX_SYNTAX_ERRORS) {
      return { ok: false, issues: errors.slice(0, MAX_SYNTAX_ERRORS).map((token) => ({ file, ...position(token.offset), path: [], message: `YAML syntax error: ${token.message}`, severity: "error" as const })) };
    }
    const composed = [...new Composer({ uniqueKeys: true }).compose(tokens, true, text.length)];
    doc = composed[0]!;
    if (composed.length > 1) return issue(position(composed[1]!.range[0]), "YAML syntax error: a suite is one YAML document; remove the second ---");
  } catch (error) {
    // The yaml package reports what it can as errors; anything it throws is still this file's problem.
    return issue({ line: 1, column: 1 }, `YAML syntax error: ${STACK_EXHAUSTED.test(String(error)) ? TOO_DEEP : (error as Error).message}`);
  }
  if (doc.errors.length > 0) {
    return {
      ok: false,
      issues: doc.errors.map((error) => {
        const message = STACK_EXHAUSTED.test(error.message) ? TOO_DEEP : error.message;
        return { file, ...position(error.pos[0]), path: [], message: `YAML syntax error: ${message}`, severity: "error" as const };
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

  const nodeAt = (path: DataPath): Node | null => {
    let node: unknown = doc.contents;
    for (const segment of path) {
      if (isMap(node)) {
        const pair = node.items.find((item) => isPair(item) && isScalar(item.key) && String(item.key.value) === String(segment));
        if (!pair) return null;
        node = pair.value;
      } else if (isSeq(node) && typeof segment === "number") {
        node = node.items[segment];
      } else {
        return null;
      }
      if (node === undefined || node === null) return null;
    }
    return node as Node;
  };

  const locate = (path: DataPath) => {
    for (let depth = path.length; depth >= 0; depth--) {
      const node = nodeAt(path.slice(0, depth));
      if (node?.range) {
        // A missing value of a present key: point at the key, not the parent.
        if (depth < path.length && isMap(node)) {
          const key = path[depth];
          const pair = node.items.find((item) => isPair(item) && isScalar(item.key) && String(item.key.value) === String(key));
          if (pair && isScalar(pair.key) && pair.key.range) return position(pair.key.range[0]);
        }
        return position(node.range[0]);
      }
    }
    return { line: 1, column: 1 };
  };

  const locateKey = (path: DataPath, key: string) => {
    const node = nodeAt(path);
    if (isMap(node)) {
      const pair = node.items.find((item) => isPair(item) && isScalar(item.key) && String(item.key.value) === key);
      if (pair && isScalar(pair.key) && pair.key.range) return position(pair.key.range[0]);
    }
    return locate(path);
  };

  return { ok: true, data, locator: { doc, locate, locateKey } };
}
