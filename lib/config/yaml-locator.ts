import { isMap, isPair, isScalar, isSeq, LineCounter, parseDocument, type Document, type Node } from "yaml";
import type { ConfigIssue } from "./types";

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

export function parseYaml(text: string, file: string): ParsedYaml {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: true, uniqueKeys: true });
  if (doc.errors.length > 0) {
    return {
      ok: false,
      issues: doc.errors.map((error) => {
        const pos = error.linePos?.[0] ?? { line: 1, col: 1 };
        // The yaml package appends a code excerpt after the first line; the
        // location is reported separately, so keep the sentence only.
        const message = (error.message.split("\n")[0] ?? error.message).replace(/ at line \d+, column \d+:?$/, "");
        return { file, line: pos.line, column: pos.col, path: [], message: `YAML syntax error: ${message}`, severity: "error" as const };
      }),
    };
  }

  const position = (offset: number) => {
    const pos = lineCounter.linePos(offset);
    return { line: pos.line, column: pos.col };
  };

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

  return { ok: true, data: doc.toJS({ maxAliasCount: 1000 }), locator: { doc, locate, locateKey } };
}
