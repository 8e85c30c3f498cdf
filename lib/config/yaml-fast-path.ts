import {
  EVENT_ID,
  SCALAR_STYLE,
  constructFromEvents,
  getScalarValue,
  parseEvents,
  type Event,
} from "js-yaml";
import { LIMITS } from "./limits";

// The common suite, parsed fast. The `yaml` package (yaml-locator.ts) is the
// loader of record: it gives every node's range, the located syntax errors
// and the checks of yaml-shape.ts, but a cold process spends ~55 ms in it on a
// 600-criterion suite, a quarter of an `eval`'s start-up. js-yaml's event
// parser (parseEvents, constructFromEvents) reads the same file in ~15 ms,
// with the offset of every collection and scalar. Both implement YAML 1.2's
// core schema and pass the YAML test suite; what this path takes is the
// subset where they agree by construction, and anything else (a syntax error,
// anchors, aliases, tags, directives, a key that is not a plain string, more
// than one document, nesting past the limit) returns null, so that the
// `yaml` path answers as it always has. test/config/yaml-fast-path.test.ts
// proves the two give the same data and the same positions.

export type FastNode =
  | { kind: "map"; start: number; keys: Map<string, { keyStart: number; value: FastNode }> }
  | { kind: "seq"; start: number; items: FastNode[] }
  /**
   * `start` is undefined where only the `yaml` path knows it (a block scalar's
   * header, an empty value); `number`: a plain scalar the core schema reads as a number.
   */
  | { kind: "scalar"; start: number | undefined; number?: true };

export interface FastParse {
  data: unknown;
  root: FastNode;
}

// A plain key the core schema reads as null: the `yaml` package makes it ""
// and js-yaml "null", so such a file takes the `yaml` path.
const NULL_KEY = /^(?:~|[Nn]ull|NULL)?$/;
// Where the two parsers were seen to differ (test/config/yaml-fast-path.test.ts
// found each on mutated suites): a carriage return alone (a line break to
// js-yaml, not to the `yaml` package), a byte-order mark or another control
// or separator character, a lone surrogate, and a document end marker ("...")
// with more text after it. A suite with any of these takes the `yaml` path.
const UNUSUAL_TEXT =
  /\r(?!\n)|[\x00-\x08\x0B\x0C\x0E-\x1F\x7F-\x9F\u2028\u2029\uFEFF]|\p{Surrogate}|^\.\.\.(?:[ \t\r]|$)/mu;

// The core schema's numbers, as the `yaml` package resolves them. js-yaml
// keeps a float past the double range ("1e309") as a string where the `yaml`
// package reads Infinity: a plain scalar of this form must come out a number.
const CORE_NUMBER =
  /^(?:[-+]?(?:[0-9]+|\.[0-9]+|[0-9]+\.[0-9]*)(?:[eE][-+]?[0-9]+)?|0o[0-7]+|0x[0-9a-fA-F]+|[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/;

function scalarStart(event: Extract<Event, { type: 4 }>): number | undefined {
  if (event.valueStart < 0) return undefined;
  if (event.style === SCALAR_STYLE.PLAIN) return event.valueStart;
  // The `yaml` package's range starts at the opening quote; js-yaml's value after it.
  if (event.style === SCALAR_STYLE.SINGLE_QUOTED || event.style === SCALAR_STYLE.DOUBLE_QUOTED)
    return event.valueStart - 1;
  return undefined;
}

function scalarNode(text: string, event: Extract<Event, { type: 4 }>): FastNode {
  const start = scalarStart(event);
  if (event.style !== SCALAR_STYLE.PLAIN || event.valueStart < 0) return { kind: "scalar", start };
  const first = text.charCodeAt(event.valueStart);
  // Only a digit, a sign or a dot can begin a number: most scalars are not tested at all.
  const mayBeNumber = (first >= 48 && first <= 57) || first === 43 || first === 45 || first === 46;
  return mayBeNumber && CORE_NUMBER.test(text.slice(event.valueStart, event.valueEnd))
    ? { kind: "scalar", start, number: true }
    : { kind: "scalar", start };
}

interface Open {
  node: FastNode;
  /** A map's key waiting for its value. */
  pendingKey?: { key: string; keyStart: number };
}

/** The data and positions of `text`, or null when the `yaml` path must answer. */
export function fastParseYaml(text: string): FastParse | null {
  if (UNUSUAL_TEXT.test(text)) return null;
  let events: Event[];
  try {
    events = parseEvents(text, { maxDepth: LIMITS.depth });
  } catch {
    return null;
  }
  const root = treeOf(text, events);
  if (!root) return null;
  let documents: unknown[];
  try {
    // maxAliases 0: an alias is refused here too (treeOf already sent such files away).
    documents = constructFromEvents(events, { source: text, maxAliases: 0 });
  } catch {
    return null;
  }
  if (documents.length !== 1 || !keysAgree(documents[0], root)) return null;
  return { data: documents[0], root };
}

function treeOf(text: string, events: Event[]): FastNode | null {
  const stack: Open[] = [];
  let root: FastNode | null = null;
  let documents = 0;
  const attach = (node: FastNode, keyEvent?: Extract<Event, { type: 4 }>): boolean => {
    const parent = stack.at(-1);
    if (!parent) {
      if (root) return false;
      root = node;
      return true;
    }
    if (parent.node.kind === "seq") parent.node.items.push(node);
    else if (parent.node.kind === "map") {
      if (!parent.pendingKey) {
        // A key: a plain or quoted scalar that is a string in the core schema.
        const keyStart = keyEvent ? scalarStart(keyEvent) : undefined;
        if (!keyEvent || keyStart === undefined) return false;
        const key = getScalarValue(text, keyEvent);
        if (keyEvent.style === SCALAR_STYLE.PLAIN && NULL_KEY.test(key)) return false;
        parent.pendingKey = { key, keyStart };
        return true;
      }
      if (parent.node.keys.has(parent.pendingKey.key)) return false;
      parent.node.keys.set(parent.pendingKey.key, {
        keyStart: parent.pendingKey.keyStart,
        value: node,
      });
      parent.pendingKey = undefined;
    }
    return true;
  };
  for (const event of events) {
    switch (event.type) {
      case EVENT_ID.DOCUMENT:
        // A document end marker ("...") too: the `yaml` package rejects text after one that js-yaml reads.
        if (++documents > 1 || event.directives.length > 0 || event.explicitEnd) return null;
        break;
      case EVENT_ID.MAPPING:
      case EVENT_ID.SEQUENCE: {
        if (event.anchorStart >= 0 || event.tagStart >= 0 || stack.length >= LIMITS.depth)
          return null;
        const node: FastNode =
          event.type === EVENT_ID.MAPPING
            ? { kind: "map", start: event.start, keys: new Map() }
            : { kind: "seq", start: event.start, items: [] };
        if (!attach(node)) return null;
        stack.push({ node });
        break;
      }
      case EVENT_ID.SCALAR:
        if (event.anchorStart >= 0 || event.tagStart >= 0) return null;
        if (!attach(scalarNode(text, event), event)) return null;
        break;
      case EVENT_ID.POP:
        // The document's own POP comes with an empty stack.
        if (stack.length > 0 && stack.pop()!.pendingKey) return null;
        break;
      default:
        // An alias.
        return null;
    }
  }
  return documents === 1 ? root : null;
}

/**
 * Every map of the data has exactly the keys the events named, as strings (no
 * number or null key turned into another spelling), and every number-shaped
 * plain scalar is a number.
 */
function keysAgree(data: unknown, node: FastNode): boolean {
  const pending: [unknown, FastNode][] = [[data, node]];
  while (pending.length > 0) {
    const [value, at] = pending.pop()!;
    if (at.kind === "map") {
      if (
        value === null ||
        typeof value !== "object" ||
        Array.isArray(value) ||
        Object.keys(value).length !== at.keys.size
      )
        return false;
      for (const [key, entry] of at.keys) {
        if (!Object.hasOwn(value, key)) return false;
        pending.push([(value as Record<string, unknown>)[key], entry.value]);
      }
    } else if (at.kind === "seq") {
      if (!Array.isArray(value) || value.length !== at.items.length) return false;
      at.items.forEach((item, i) => pending.push([value[i], item]));
    } else if (at.number && typeof value !== "number") {
      return false;
    }
  }
  return true;
}
