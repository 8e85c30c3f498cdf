import type { DatasetColumnsInput, DatasetItem } from "./dataset-schema";
import { LIMITS, formatCount } from "./limits";

// The column mapping of a CSV or JSONL dataset: which column (a CSV header) or
// field (a JSONL key) holds each part of an item, and turning one row into a
// DatasetItem. Shared by both formats, so a CSV and a JSONL file with the same
// mapping give the same items. A column named in `columns:` must exist; the
// defaults (the item's own field names) may be absent.

export type ItemPart =
  "id" | "input" | "expected_output" | "expected_outputs" | "context" | "label";

export interface ColumnMapping {
  id: string;
  input: string;
  expected_output: string;
  /** Columns of more acceptable outputs, in order. */
  expected_outputs: string[];
  context: string[];
  label: { column: string; name: string };
  /** The columns the user named, each for the part it fills: these must exist. */
  explicit: { part: ItemPart; column: string }[];
}

export function columnMapping(columns: DatasetColumnsInput | undefined): ColumnMapping {
  const c = columns ?? {};
  const label =
    c.label === undefined
      ? { column: "label", name: "score" }
      : typeof c.label === "string"
        ? { column: c.label, name: "score" }
        : c.label;
  const listOf = (columns: string | string[] | undefined, otherwise: string) =>
    columns === undefined ? [otherwise] : typeof columns === "string" ? [columns] : columns;
  const context = listOf(c.context, "context");
  const expectedOutputs = listOf(c.expected_outputs, "expected_outputs");
  const explicit: ColumnMapping["explicit"] = [
    ...(["id", "input", "expected_output"] as const).flatMap((part) =>
      c[part] !== undefined ? [{ part, column: c[part] }] : [],
    ),
    ...(c.expected_outputs !== undefined
      ? expectedOutputs.map((column) => ({ part: "expected_outputs" as const, column }))
      : []),
    ...(c.context !== undefined
      ? context.map((column) => ({ part: "context" as const, column }))
      : []),
    ...(c.label !== undefined ? [{ part: "label" as const, column: label.column }] : []),
  ];
  return {
    id: c.id ?? "id",
    input: c.input ?? "input",
    expected_output: c.expected_output ?? "expected_output",
    expected_outputs: expectedOutputs,
    context,
    label,
    explicit,
  };
}

/** A problem with one value of a row, named by its column. */
export interface CellProblem {
  column: string;
  message: string;
}

const LABELS = new Set(["pass", "partial", "fail"]);

function text(value: unknown, column: string, problems: CellProblem[]): string | undefined {
  if (value === undefined || value === null || value === "") return undefined;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (typeof value !== "string") {
    problems.push({
      column,
      message: `is ${Array.isArray(value) ? "a list" : "an object"}, not text`,
    });
    return undefined;
  }
  if (value.length > LIMITS.maxResultChars) {
    problems.push({
      column,
      message: `is ${formatCount(value.length)} characters; a value holds at most ${formatCount(LIMITS.maxResultChars)}`,
    });
    return undefined;
  }
  return value;
}

function annotation(
  value: unknown,
  label: ColumnMapping["label"],
  problems: CellProblem[],
): DatasetItem["annotations"] {
  if (value === undefined || value === null || value === "") return [];
  const raw = typeof value === "string" ? value.trim() : value;
  const score =
    typeof raw === "number"
      ? raw
      : typeof raw === "string" && /^[+-]?(\d+\.?\d*|\.\d+)$/.test(raw)
        ? Number(raw)
        : undefined;
  if (score !== undefined) {
    if (score >= 0 && score <= 1) return [{ name: label.name, score, annotatorType: "human" }];
    problems.push({ column: label.column, message: `is ${score}; a label's score is in 0..1` });
    return [];
  }
  if (typeof raw === "string" && LABELS.has(raw.toLowerCase()))
    return [{ name: label.name, label: raw.toLowerCase(), annotatorType: "human" }];
  problems.push({
    column: label.column,
    message: `is ${JSON.stringify(typeof raw === "string" ? raw.slice(0, 40) : raw)}; a label is a score in 0..1 or pass, partial or fail`,
  });
  return [];
}

/**
 * A CSV cell of an expected_outputs column that is a JSON list of strings (`["Paris", "paris"]`)
 * holds several outputs; any other text is one output (a JSONL field is a list already).
 */
function jsonList(value: unknown): unknown {
  if (typeof value !== "string" || !value.trimStart().startsWith("[")) return value;
  try {
    const list: unknown = JSON.parse(value);
    return Array.isArray(list) && list.every((v) => typeof v === "string") ? list : value;
  } catch {
    return value;
  }
}

/**
 * One row (a CSV record keyed by header, or a JSONL object) as an item; `row` is its 1-based
 * number, the id when it has none.
 */
export function rowToItem(input: {
  row: number;
  values: Record<string, unknown>;
  mapping: ColumnMapping;
}): { item: DatasetItem; problems: CellProblem[] } {
  const { values, mapping } = input;
  const problems: CellProblem[] = [];
  const get = (column: string) => (Object.hasOwn(values, column) ? values[column] : undefined);
  const id = text(get(mapping.id), mapping.id, problems) ?? String(input.row);
  if (id.length > LIMITS.nameChars)
    problems.push({
      column: mapping.id,
      message: `is ${formatCount(id.length)} characters; an id has at most ${formatCount(LIMITS.nameChars)}`,
    });
  const inputText = text(get(mapping.input), mapping.input, problems);
  const expected = text(get(mapping.expected_output), mapping.expected_output, problems);
  const texts = (columns: string[], split: boolean) =>
    columns.flatMap((column) => {
      const value = split ? jsonList(get(column)) : get(column);
      if (Array.isArray(value))
        return value.flatMap((part, i) => text(part, `${column}[${i}]`, problems) ?? []);
      return text(value, column, problems) ?? [];
    });
  const context = texts(mapping.context, false);
  const expectedOutputs = texts(mapping.expected_outputs, true);
  const item: DatasetItem = {
    id,
    ...(inputText !== undefined ? { input: inputText } : {}),
    ...(expected !== undefined ? { expectedOutput: expected } : {}),
    ...(expectedOutputs.length > 0 ? { expectedOutputs } : {}),
    ...(context.length > 0 ? { context } : {}),
    annotations: annotation(get(mapping.label.column), mapping.label, problems),
  };
  return { item, problems };
}
