import { isMap, isScalar, isSeq, type Node, type YAMLMap } from "yaml";
import { parseYaml, positionsIn } from "../../../config/yaml-locator";

// Where each calibration anchor (a criterion's `examples:` entry) was typed,
// from the YAML locator's document (not a regex over the text): the editor
// decorates those lines with the judged score. A criterion of a reusable
// rubric (`rubrics:`) is found through each eval's `ref`, so its anchors are
// reported once per eval that uses it, at the same place.

export interface AnchorSpot {
  eval: string;
  criterion: string;
  /** 1-based, as the calibration result's item id of an anchor. */
  id: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
}

export interface CriterionSpan {
  eval: string;
  criterion: string;
  startLine: number;
  endLine: number;
  anchors: AnchorSpot[];
}

function get(map: unknown, key: string): unknown {
  if (!isMap(map)) return undefined;
  const pair = (map as YAMLMap).items.find(
    (item) => isScalar(item.key) && String(item.key.value) === key,
  );
  return pair?.value ?? undefined;
}

function scalarText(node: unknown): string | undefined {
  return isScalar(node) && node.value !== null && node.value !== undefined
    ? String(node.value)
    : undefined;
}

export function locateAnchors(input: { text: string; file: string }): CriterionSpan[] {
  const parsed = parseYaml(input.text, input.file);
  if (!parsed.ok) return [];
  const position = positionsIn(input.text);
  // A node's range ends after trailing newlines; step back so the span ends on its last character.
  const endOf = (node: Node) => {
    let end = node.range![1];
    while (end > node.range![0] && /\s/.test(input.text[end - 1] ?? "")) end--;
    return position(end);
  };

  const root = parsed.locator.doc.contents;
  const rubrics = get(root, "rubrics");
  const evals = get(root, "evals");
  if (!isSeq(evals)) return [];
  const spans: CriterionSpan[] = [];
  for (const e of evals.items) {
    const evalName = scalarText(get(e, "name"));
    if (evalName === undefined) continue;
    let rubric = get(e, "rubric");
    const ref = scalarText(get(rubric, "ref"));
    if (ref !== undefined) rubric = get(rubrics, ref);
    const criteria = get(rubric, "criteria");
    if (!isSeq(criteria)) continue;
    for (const c of criteria.items) {
      const name = scalarText(get(c, "name"));
      if (name === undefined || !isMap(c) || !c.range) continue;
      const examples = get(c, "examples");
      const anchors: AnchorSpot[] = [];
      if (isSeq(examples)) {
        examples.items.forEach((example, i) => {
          const node = example as Node;
          if (!node?.range) return;
          const start = position(node.range[0]);
          const end = endOf(node);
          anchors.push({
            eval: evalName,
            criterion: name,
            id: String(i + 1),
            line: start.line,
            column: start.column,
            endLine: end.line,
            endColumn: end.column,
          });
        });
      }
      spans.push({
        eval: evalName,
        criterion: name,
        startLine: position(c.range[0]).line,
        endLine: endOf(c).line,
        anchors,
      });
    }
  }
  return spans;
}
