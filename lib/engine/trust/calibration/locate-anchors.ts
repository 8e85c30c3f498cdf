import { isMap, isScalar, isSeq, type Node, type YAMLMap } from "yaml";
import { PRESETS } from "../../../config/presets";
import { parseYaml, positionsIn } from "../../../config/yaml-locator";

type PresetName = keyof typeof PRESETS;

// Where each calibration anchor (a criterion's `examples:` entry) was typed,
// from the YAML locator's document (not a regex over the text): the editor
// decorates those lines with the judged score. A criterion of a reusable
// rubric (`rubrics:`) is found through each eval's `ref`, so its anchors are
// reported for each eval that uses it, at the same place, with the rubric as
// `shared` (checkAnchors grades and counts them once). A preset's anchors were
// never typed: they are placed on the eval's `preset:` line.

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
  /** The rubric several evals may share ("ref:NAME", "preset:NAME"): its anchors are the same in each. */
  shared?: string;
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

/** A preset's criteria with anchors, each anchor placed on the `preset:` value's line. */
function presetSpans(
  evalName: string,
  node: unknown,
  position: (offset: number) => { line: number; column: number },
): CriterionSpan[] {
  const name = scalarText(node);
  const preset =
    name !== undefined && Object.hasOwn(PRESETS, name) ? PRESETS[name as PresetName] : undefined;
  if (!preset || !(node as Node).range) return [];
  const at = position((node as Node).range![0]);
  const end = position((node as Node).range![1]);
  return preset.criteria
    .filter((c) => (c.examples?.length ?? 0) > 0)
    .map((c) => ({
      eval: evalName,
      criterion: c.name,
      shared: `preset:${name}`,
      startLine: at.line,
      endLine: at.line,
      anchors: (c.examples ?? []).map((_, i) => ({
        eval: evalName,
        criterion: c.name,
        id: String(i + 1),
        line: at.line,
        column: at.column,
        endLine: end.line,
        endColumn: end.column,
      })),
    }));
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
    const shared = ref !== undefined ? `ref:${ref}` : undefined;
    spans.push(...presetSpans(evalName, get(rubric, "preset"), position));
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
        ...(shared ? { shared } : {}),
        startLine: position(c.range[0]).line,
        endLine: endOf(c).line,
        anchors,
      });
    }
  }
  return spans;
}
