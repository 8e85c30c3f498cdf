import { parse } from "csv-parse/sync";
import { columnMapping, rowToItem, type ColumnMapping } from "./dataset-columns";
import { tooManyItems } from "./parse-dataset-jsonl";
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

export function csvErrorMessage(
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
    case "CSV_MAX_RECORD_SIZE":
      return "the record is longer than a record of a dataset file may be (64 MiB)";
    case "CSV_RECORD_INCONSISTENT_FIELDS_LENGTH":
      return `this row has ${error.record?.length ?? "a different number of"} fields; the header has ${headerLength}`;
    default:
      return error.message;
  }
}

/** A CSV's header row, read: where each column is, and the columns an item is made of. */
export interface CsvHeader {
  columnOf: Map<string, number>;
  /** The mapped columns present, with their index: only these are read from each row. */
  used: (readonly [string, number])[];
  length: number;
}

/** The header row checked against the mapping (problems located at `line`). */
export function readCsvHeader(input: { record: string[]; line: number; mapping: ColumnMapping }): {
  header: CsvHeader;
  problems: DatasetFileProblem[];
} {
  const { record, line, mapping } = input;
  const problems: DatasetFileProblem[] = [];
  const columnOf = new Map<string, number>();
  if (record.length > LIMITS.datasetColumns) {
    problems.push({
      line,
      column: LIMITS.datasetColumns + 1,
      message: `the header has ${formatCount(record.length)} columns; a CSV dataset has at most ${formatCount(LIMITS.datasetColumns)}`,
    });
    return { header: { columnOf, used: [], length: record.length }, problems };
  }
  record.forEach((name, i) => {
    if (name !== "" && columnOf.has(name)) {
      if (problems.length < MAX_PROBLEMS)
        problems.push({
          line,
          column: i + 1,
          message: `column "${name}" appears twice in the header (also column ${columnOf.get(name)! + 1})`,
        });
    } else columnOf.set(name, i);
  });
  for (const { part, column } of mapping.explicit) {
    if (!columnOf.has(column)) {
      const names = record
        .filter((n) => n !== "")
        .map((n) => `"${n}"`)
        .join(", ");
      problems.push({
        line,
        column: 1,
        message: `columns.${part} names column "${column}", which the header does not have; its columns: ${names || "(none)"}`,
      });
    }
  }
  // Only the mapped columns are read from each row: a header of thousands of unused columns costs nothing per row.
  const used = [
    mapping.id,
    mapping.input,
    mapping.expected_output,
    ...mapping.expected_outputs,
    ...mapping.context,
    mapping.label.column,
  ].flatMap((name) => {
    const index = columnOf.get(name);
    return index === undefined ? [] : [[name, index] as const];
  });
  return { header: { columnOf, used, length: record.length }, problems };
}

/** One data row of a CSV as an item; `row` is its 1-based number among the data rows. */
export function csvRowItem(input: {
  record: string[];
  line: number;
  row: number;
  header: CsvHeader;
  mapping: ColumnMapping;
}): { item: DatasetItem; problems: DatasetFileProblem[] } {
  const { record, line, row, header, mapping } = input;
  const values = Object.fromEntries(header.used.map(([name, index]) => [name, record[index]]));
  const { item, problems } = rowToItem({ row, values, mapping });
  return {
    item,
    problems: problems.map((cell) => ({
      line,
      column: (header.columnOf.get(cell.column.replace(/\[\d+\]$/, "")) ?? 0) + 1,
      message: `row ${row}, column "${cell.column}" ${cell.message}`,
    })),
  };
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
  if (rows.length === 0) return { ok: false, problems: [EMPTY_CSV] };
  const [first, ...data] = rows as [CsvRow, ...CsvRow[]];
  const mapping = columnMapping(input.columns);
  const { header, problems } = readCsvHeader({
    record: first.record,
    line: lineAt(first.started),
    mapping,
  });
  if (data.length > LIMITS.datasetItems)
    problems.push(
      tooManyItems({
        line: lineAt(data[LIMITS.datasetItems]!.started),
        max: LIMITS.datasetItems,
        what: "row",
      }),
    );
  if (problems.length > 0) return { ok: false, problems };
  const items: DatasetItem[] = [];
  for (const [i, { record, started }] of data.entries()) {
    if (problems.length >= MAX_PROBLEMS) break;
    const read = csvRowItem({ record, line: lineAt(started), row: i + 1, header, mapping });
    problems.push(...read.problems);
    items.push(read.item);
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, items };
}

export const EMPTY_CSV: DatasetFileProblem = {
  line: 1,
  column: 1,
  message: "the file is empty: a CSV dataset starts with a header row naming its columns",
};
