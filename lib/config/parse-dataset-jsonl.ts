import { columnMapping, rowToItem } from "./dataset-columns";
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
// its line, and at the column JSON.parse names for a syntax error.

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
      problems.push({
        line,
        column: 1,
        message: `a dataset has at most ${formatCount(LIMITS.datasetItems)} items; this is item ${formatCount(LIMITS.datasetItems + 1)}`,
      });
      break;
    }
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (error) {
      problems.push({
        line,
        column: jsonErrorPlace((error as Error).message).column,
        message: `not valid JSON: ${(error as Error).message}`,
      });
      continue;
    }
    if (value === null || typeof value !== "object" || Array.isArray(value)) {
      problems.push({
        line,
        column: 1,
        message: `each line is one JSON object (an item); this one is ${value === null ? "null" : Array.isArray(value) ? "a list" : `a ${typeof value}`}`,
      });
      continue;
    }
    const record = value as Record<string, unknown>;
    const missing = mapping.explicit.filter(({ column }) => !Object.hasOwn(record, column));
    for (const { part, column } of missing)
      problems.push({
        line,
        column: 1,
        message: `columns.${part} names field "${column}", which this object does not have`,
      });
    const { item, problems: cells } = rowToItem({ row: items.length + 1, values: record, mapping });
    for (const cell of cells)
      problems.push({ line, column: 1, message: `field "${cell.column}" ${cell.message}` });
    items.push(item);
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, items };
}
