import { parse } from "csv-parse/sync";
import { columnMapping, rowToItem } from "./dataset-columns";
import type { DatasetColumnsInput, DatasetItem } from "./dataset-schema";
import { LIMITS, formatCount } from "./limits";
import {
  MAX_PROBLEMS,
  type DatasetFileProblem,
  type ParseDatasetResult,
} from "./dataset-file-problem";

// A CSV dataset (RFC 4180: a header row, quoted fields with "" inside and
// line breaks, CRLF or LF, an optional UTF-8 byte order mark), parsed by
// csv-parse, with every problem located at the line where its record starts
// and the column (the field's 1-based number) of the value at fault.

/**
 * Line numbers of byte offsets (csv-parse counts bytes), by counting line
 * feeds from the last offset asked, so a file of millions of lines costs no
 * table; offsets come mostly in increasing order.
 */
function lineFinder(bytes: Buffer): (offset: number) => number {
  let at = 0;
  let line = 1;
  return (offset) => {
    // Skip blank lines between records: the record starts at its first character.
    let start = offset;
    while (start < bytes.length && (bytes[start] === 0x0a || bytes[start] === 0x0d)) start += 1;
    if (start < at) {
      at = 0;
      line = 1;
    }
    for (
      let feed = bytes.indexOf(0x0a, at);
      feed !== -1 && feed < start;
      feed = bytes.indexOf(0x0a, feed + 1)
    )
      line += 1;
    at = start;
    return line;
  };
}

interface CsvRow {
  record: string[];
  /** Byte offset of the record's start (before any blank lines). */
  started: number;
}

const QUOTE_ADVICE = 'quote the whole field and double every quote inside it ("")';

function csvErrorMessage(
  error: { code?: string; message: string; record?: unknown[] },
  headerLength: number,
): string {
  switch (error.code) {
    case "CSV_QUOTE_NOT_CLOSED":
      return 'a quoted field that starts in this record is never closed (no matching ")';
    case "INVALID_OPENING_QUOTE":
      return `a " inside an unquoted field; ${QUOTE_ADVICE}`;
    case "CSV_INVALID_CLOSING_QUOTE":
      return `text right after a closing quote; ${QUOTE_ADVICE}`;
    case "CSV_RECORD_INCONSISTENT_FIELDS_LENGTH":
      return `this row has ${error.record?.length ?? "a different number of"} fields; the header has ${headerLength}`;
    default:
      return error.message;
  }
}

export function parseDatasetCsv(input: {
  text: string;
  columns?: DatasetColumnsInput;
}): ParseDatasetResult {
  const bytes = Buffer.from(input.text, "utf8");
  const lineAt = lineFinder(bytes);
  let recordStart = 0;
  let headerLength = 0;
  let rows: CsvRow[];
  try {
    // csv-parse types a changed record (on_record's result) only together with columns:, which this parse does not use.
    rows = parse(bytes, {
      bom: true,
      skip_empty_lines: true,
      // The header and one record past the ceiling, so that a file over it is reported, not parsed whole.
      to: LIMITS.datasetItems + 2,
      // Each record with the byte offset where it starts, for its line number.
      on_record: (record: string[], context) => {
        if (context.records === 1) headerLength = record.length;
        const started = recordStart;
        recordStart = context.bytes;
        return { record, started } as unknown as string[];
      },
    }) as unknown as CsvRow[];
  } catch (error) {
    const e = error as { code?: string; message: string; index?: number; record?: unknown[] };
    return {
      ok: false,
      problems: [
        {
          line: lineAt(recordStart),
          column: (e.index ?? 0) + 1,
          message: csvErrorMessage(e, headerLength),
        },
      ],
    };
  }
  if (rows.length === 0)
    return {
      ok: false,
      problems: [
        {
          line: 1,
          column: 1,
          message: "the file is empty: a CSV dataset starts with a header row naming its columns",
        },
      ],
    };
  const [header, ...data] = rows as [CsvRow, ...CsvRow[]];
  if (header.record.length > LIMITS.datasetColumns) {
    return {
      ok: false,
      problems: [
        {
          line: lineAt(header.started),
          column: LIMITS.datasetColumns + 1,
          message: `the header has ${formatCount(header.record.length)} columns; a CSV dataset has at most ${formatCount(LIMITS.datasetColumns)}`,
        },
      ],
    };
  }
  const problems: DatasetFileProblem[] = [];
  const columnOf = new Map<string, number>();
  header.record.forEach((name, i) => {
    if (name !== "" && columnOf.has(name)) {
      if (problems.length < MAX_PROBLEMS)
        problems.push({
          line: lineAt(header.started),
          column: i + 1,
          message: `column "${name}" appears twice in the header (also column ${columnOf.get(name)! + 1})`,
        });
    } else columnOf.set(name, i);
  });
  const mapping = columnMapping(input.columns);
  for (const { part, column } of mapping.explicit) {
    if (!columnOf.has(column)) {
      const names = header.record
        .filter((n) => n !== "")
        .map((n) => `"${n}"`)
        .join(", ");
      problems.push({
        line: lineAt(header.started),
        column: 1,
        message: `columns.${part} names column "${column}", which the header does not have; its columns: ${names || "(none)"}`,
      });
    }
  }
  if (data.length > LIMITS.datasetItems) {
    problems.push({
      line: lineAt(data[LIMITS.datasetItems]!.started),
      column: 1,
      message: `a dataset has at most ${formatCount(LIMITS.datasetItems)} items; this is row ${formatCount(LIMITS.datasetItems + 1)}`,
    });
  }
  if (problems.length > 0) return { ok: false, problems };
  // Only the mapped columns are read from each row: a header of thousands of unused columns costs nothing per row.
  const used = [
    mapping.id,
    mapping.input,
    mapping.expected_output,
    ...mapping.context,
    mapping.label.column,
  ].flatMap((name) => {
    const index = columnOf.get(name);
    return index === undefined ? [] : [[name, index] as const];
  });
  const items: DatasetItem[] = [];
  for (const [i, { record, started }] of data.entries()) {
    if (problems.length >= MAX_PROBLEMS) break;
    const values = Object.fromEntries(used.map(([name, index]) => [name, record[index]]));
    const { item, problems: cells } = rowToItem({ row: i + 1, values, mapping });
    for (const cell of cells)
      problems.push({
        line: lineAt(started),
        column: (columnOf.get(cell.column) ?? 0) + 1,
        message: `row ${i + 1}, column "${cell.column}" ${cell.message}`,
      });
    items.push(item);
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, items };
}
