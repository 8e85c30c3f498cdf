import { isAlias, isMap, isPair, isSeq, type CST, type Document, type Node } from "yaml";
import { LIMITS, formatCount } from "./limits";

// What must hold of a parsed YAML document before it is turned into data:
// every alias names an anchor set before it (and not around it), aliases do
// not blow the document up (a "billion laughs" file), and nothing nests
// deeper than the loader and zod can walk. One iterative pass, so that a
// hostile file cannot exhaust the stack here either.

export const TOO_DEEP = `the YAML nests deeper than ${LIMITS.depth} levels`;

export interface ShapeProblem {
  /** Offset in the text of the node the problem is at. */
  offset: number;
  message: string;
}

const COLLECTIONS = new Set(["block-map", "block-seq", "flow-collection"]);

/**
 * Nesting measured on the parser's tokens, before a document is composed:
 * the yaml package composes recursively, and tens of thousands of nested
 * brackets take it minutes or the whole stack.
 */
export function checkTokenDepth(tokens: readonly CST.Token[]): ShapeProblem | null {
  const stack: { token: CST.Token; depth: number }[] = tokens.map((token) => ({ token, depth: 0 }));
  while (stack.length > 0) {
    const { token, depth: parentDepth } = stack.pop()!;
    const depth = COLLECTIONS.has(token.type) ? parentDepth + 1 : parentDepth;
    if (depth > LIMITS.depth) return { offset: token.offset, message: TOO_DEEP };
    if (token.type === "document" && token.value) stack.push({ token: token.value, depth });
    if (
      token.type === "block-map" ||
      token.type === "block-seq" ||
      token.type === "flow-collection"
    ) {
      for (const item of token.items) {
        if (item.key) stack.push({ token: item.key, depth });
        if (item.value) stack.push({ token: item.value, depth });
      }
    }
  }
  return null;
}

interface Frame {
  node: Node;
  depth: number;
  children: (Node | null)[];
  next: number;
  size: number;
  height: number;
}

function childrenOf(node: Node): (Node | null)[] {
  if (isMap(node))
    return node.items.flatMap((pair) =>
      isPair(pair) ? [pair.key as Node | null, pair.value as Node | null] : [],
    );
  if (isSeq(node)) return node.items as (Node | null)[];
  return [];
}

export function checkYamlShape(doc: Document): ShapeProblem | null {
  const root = doc.contents as Node | null;
  if (!root) return null;
  // Anchors seen so far in document order: an alias refers to the latest one.
  const anchors = new Map<string, Node>();
  // Per finished node: nodes it expands to, and how deep it nests, aliases expanded.
  const finished = new Map<Node, { size: number; height: number }>();
  let expanded = 0;
  const stack: Frame[] = [];

  const enter = (
    node: Node,
    depth: number,
  ): ShapeProblem | { size: number; height: number } | null => {
    const offset = node.range?.[0] ?? 0;
    if (depth > LIMITS.depth) return { offset, message: TOO_DEEP };
    if (isAlias(node)) {
      const target = anchors.get(node.source);
      if (!target)
        return {
          offset,
          message: `unknown alias *${node.source}: an anchor &${node.source} must come before it`,
        };
      const measured = finished.get(target);
      if (!measured)
        return {
          offset,
          message: `alias *${node.source} is inside the node it refers to, which would make it infinite`,
        };
      expanded += measured.size;
      if (expanded > LIMITS.aliasExpansion) {
        return {
          offset,
          message: `aliases expand this file to more than ${formatCount(LIMITS.aliasExpansion)} values; write the repeated parts out, or repeat them less`,
        };
      }
      if (depth + measured.height > LIMITS.depth)
        return {
          offset,
          message: `alias *${node.source} makes the YAML nest deeper than ${LIMITS.depth} levels`,
        };
      return measured;
    }
    if (node.anchor) anchors.set(node.anchor, node);
    stack.push({ node, depth, children: childrenOf(node), next: 0, size: 1, height: 0 });
    return null;
  };

  const first = enter(root, 1);
  if (first && "message" in first) return first;
  while (stack.length > 0) {
    const frame = stack[stack.length - 1]!;
    if (frame.next < frame.children.length) {
      const child = frame.children[frame.next++];
      if (!child) continue;
      const result = enter(child, frame.depth + 1);
      if (result && "message" in result) return result;
      if (result) {
        frame.size += result.size;
        frame.height = Math.max(frame.height, result.height);
      }
      continue;
    }
    stack.pop();
    const measured = { size: frame.size, height: frame.height + 1 };
    finished.set(frame.node, measured);
    const parent = stack[stack.length - 1];
    if (parent) {
      parent.size += measured.size;
      parent.height = Math.max(parent.height, measured.height);
    }
  }
  return null;
}
