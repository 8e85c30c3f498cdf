import { columnMapping, rowToItem, type ColumnMapping } from "./dataset-columns";
import type { DatasetColumnsInput, DatasetItem } from "./dataset-schema";
import { LIMITS, formatCount } from "./limits";
import {
  jsonErrorPlace,
  MAX_PROBLEMS,
  type DatasetFileProblem,
  type ParseDatasetResult,
} from "./dataset-file-problem";

// A JSON Lines dataset: one JSON object per line (blank lines skipped), its
// fields picked by the same column mapping as a CSV's. Every problem is at
// its line, and at the column JSON.parse names for a syntax error. One line at
// a time (jsonlLineItem), so that the CLI streams a file of millions of lines
// through the same rules (lib/cli/stream-dataset.ts).

/**
 * One line of a JSONL file as an item (undefined for a blank line), with its problems; `line` is its
 * 1-based number, `row` the item's (the id when it has none).
 */
export function jsonlLineItem(input: {
  raw: string;
  line: number;
  row: number;
  mapping: ColumnMapping;
}): { item?: DatasetItem; problems: DatasetFileProblem[] } {
  const { raw, line, mapping } = input;
  if (raw.trim() === "") return { problems: [] };
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (error) {
    return {
      problems: [
        {
          line,
          column: jsonErrorPlace((error as Error).message).column,
          message: `not valid JSON: ${(error as Error).message}`,
        },
      ],
    };
  }
  if (value === null || typeof value !== "object" || Array.isArray(value))
    return {
      problems: [
        {
          line,
          column: 1,
          message: `each line is one JSON object (an item); this one is ${value === null ? "null" : Array.isArray(value) ? "a list" : `a ${typeof value}`}`,
        },
      ],
    };
  const record = value as Record<string, unknown>;
  const problems: DatasetFileProblem[] = mapping.explicit
    .filter(({ column }) => !Object.hasOwn(record, column))
    .map(({ part, column }) => ({
      line,
      column: 1,
      message: `columns.${part} names field "${column}", which this object does not have`,
    }));
  const { item, problems: cells } = rowToItem({ row: input.row, values: record, mapping });
  for (const cell of cells)
    problems.push({ line, column: 1, message: `field "${cell.column}" ${cell.message}` });
  return { item, problems };
}

/** The problem of the item past a dataset's ceiling. */
export function tooManyItems(input: {
  line: number;
  max: number;
  what: "item" | "row";
  raise?: string;
}): DatasetFileProblem {
  return {
    line: input.line,
    column: 1,
    message: `a dataset has at most ${formatCount(input.max)} items; this is ${input.what} ${formatCount(input.max + 1)}${input.raise ? ` (${input.raise})` : ""}`,
  };
}

export function parseDatasetJsonl(input: {
  text: string;
  columns?: DatasetColumnsInput;
}): ParseDatasetResult {
  const mapping = columnMapping(input.columns);
  const text = input.text.replace(/^\uFEFF/, "");
  const items: DatasetItem[] = [];
  const problems: DatasetFileProblem[] = [];
  // Line by line without splitting the whole file: a hostile file of millions of lines stops at the item limit.
  for (
    let start = 0, index = 0;
    start <= text.length && problems.length < MAX_PROBLEMS;
    index += 1
  ) {
    const end = text.indexOf("\n", start);
    const raw = text.slice(start, end === -1 ? text.length : end).replace(/\r$/, "");
    start = end === -1 ? text.length + 1 : end + 1;
    if (raw.trim() === "") continue;
    const line = index + 1;
    if (items.length === LIMITS.datasetItems) {
      problems.push(tooManyItems({ line, max: LIMITS.datasetItems, what: "item" }));
      break;
    }
    const read = jsonlLineItem({ raw, line, row: items.length + 1, mapping });
    problems.push(...read.problems);
    if (read.item) items.push(read.item);
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, items };
}
