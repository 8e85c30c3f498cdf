import { createReadStream } from "node:fs";
import { parse } from "csv-parse";
import { columnMapping } from "../config/dataset-columns";
import { FILE_PLAN_LIMITS, formatCount } from "../config/limits";
import type { DatasetColumnsInput, DatasetItem } from "../config/dataset-schema";
import { MAX_PROBLEMS, type DatasetFileProblem } from "../config/dataset-file-problem";
import { jsonlLineItem, tooManyItems } from "../config/parse-dataset-jsonl";
import {
  csvErrorMessage,
  csvRowItem,
  EMPTY_CSV,
  readCsvHeader,
  type CsvHeader,
} from "../config/parse-dataset-csv";
import {
  describeUnstorable,
  unstorableAt,
  unstorableStrings,
  UNSTORABLE_REASON,
} from "../config/storable-text";

// A JSONL or CSV dataset file read as a stream, line by line, in constant
// memory: once to check and count it (scanDatasetFile: every problem located
// at its line, as parse-dataset-file.ts locates them in a file read whole),
// then again, item by item, while cells are planned (readDatasetItems). The
// rules of each line are lib/config's, shared with the whole-file parsers.

export interface StreamedFile {
  /** The file's path, as it is opened. */
  path: string;
  format: "jsonl" | "csv";
  columns?: DatasetColumnsInput;
}

interface Row {
  item?: DatasetItem;
  line: number;
  problems: DatasetFileProblem[];
}

const LINE_FEED = 0x0a;

/**
 * The lines of a file, each decoded alone (a line feed never occurs inside a UTF-8 sequence), or
 * `undefined` for a line past FILE_PLAN_LIMITS.streamedLineBytes, which is skipped unread: only a
 * line at a time is held, whatever the file.
 */
async function* linesOf(path: string): AsyncGenerator<string | undefined> {
  let parts: Buffer[] = [];
  let held = 0;
  let tooLong = false;
  const flush = (last: Buffer) => {
    const text = tooLong ? undefined : Buffer.concat([...parts, last]).toString("utf8");
    parts = [];
    held = 0;
    tooLong = false;
    return text?.endsWith("\r") ? text.slice(0, -1) : text;
  };
  for await (const chunk of createReadStream(path) as AsyncIterable<Buffer>) {
    let start = 0;
    for (let feed = chunk.indexOf(LINE_FEED); feed !== -1; feed = chunk.indexOf(LINE_FEED, start)) {
      const piece = chunk.subarray(start, feed);
      tooLong ||= held + piece.length > FILE_PLAN_LIMITS.streamedLineBytes;
      yield flush(piece);
      start = feed + 1;
    }
    const rest = chunk.subarray(start);
    held += rest.length;
    if (held > FILE_PLAN_LIMITS.streamedLineBytes) {
      tooLong = true;
      parts = [];
    } else if (rest.length > 0) parts.push(Buffer.from(rest));
  }
  if (held > 0 || parts.length > 0 || tooLong) yield flush(Buffer.alloc(0));
}

async function* jsonlRows(file: StreamedFile): AsyncGenerator<Row> {
  const mapping = columnMapping(file.columns);
  let line = 0;
  let row = 0;
  for await (const text of linesOf(file.path)) {
    line += 1;
    if (text === undefined) {
      yield { line, problems: [{ line, column: 1, message: LINE_TOO_LONG }] };
      continue;
    }
    const raw = line === 1 ? text.replace(/^\uFEFF/, "") : text;
    const read = jsonlLineItem({ raw, line, row: row + 1, mapping });
    if (read.item) row += 1;
    if (read.item || read.problems.length > 0) yield { ...read, line };
  }
}

const LINE_TOO_LONG = `the line is longer than ${formatCount(FILE_PLAN_LIMITS.streamedLineBytes)} bytes, the most a line of a dataset file may hold`;

/** Line feeds inside a record's fields: a record starts that many lines before the one it ends on. */
const feedsIn = (record: string[]) =>
  record.reduce((n, field) => n + (field.match(/\n/g)?.length ?? 0), 0);

async function* csvRows(file: StreamedFile): AsyncGenerator<Row> {
  const mapping = columnMapping(file.columns);
  const records = createReadStream(file.path).pipe(
    parse({
      bom: true,
      skip_empty_lines: true,
      info: true,
      max_record_size: FILE_PLAN_LIMITS.streamedLineBytes,
    }),
  );
  let header: CsvHeader | undefined;
  let row = 0;
  // The line the last record ended on: an error is located where the next one starts.
  let ended = 0;
  try {
    for await (const { record, info } of records as AsyncIterable<{
      record: string[];
      info: { lines: number };
    }>) {
      const line = info.lines - feedsIn(record);
      ended = info.lines;
      if (!header) {
        const read = readCsvHeader({ record, line, mapping });
        header = read.header;
        if (read.problems.length > 0) {
          yield { line, problems: read.problems };
          return;
        }
        continue;
      }
      if (record.length !== header.length) {
        yield {
          line,
          problems: [
            {
              line,
              column: 1,
              message: csvErrorMessage(
                { code: "CSV_RECORD_INCONSISTENT_FIELDS_LENGTH", message: "", record },
                header.length,
              ),
            },
          ],
        };
        continue;
      }
      row += 1;
      yield { ...csvRowItem({ record, line, row, header, mapping }), line };
    }
  } catch (error) {
    const e = error as { code?: string; message: string; index?: number };
    const line = ended + 1;
    yield {
      line,
      problems: [
        { line, column: (e.index ?? 0) + 1, message: csvErrorMessage(e, header?.length ?? 0) },
      ],
    };
    return;
  } finally {
    records.destroy();
  }
  if (!header) yield { line: 1, problems: [EMPTY_CSV] };
}

const rowsOf = (file: StreamedFile) => (file.format === "csv" ? csvRows(file) : jsonlRows(file));

/** A NUL or an unpaired surrogate in an item: Postgres could not store its results. */
function unstorableProblem(item: DatasetItem, line: number): DatasetFileProblem | undefined {
  const [found] = unstorableStrings(item, 1);
  if (!found) return undefined;
  const field = found.path.join(".");
  return {
    line,
    column: 1,
    message: `item "${item.id}"${field ? ` (${field})` : ""} contains ${describeUnstorable(found.text, unstorableAt(found.text))}, ${UNSTORABLE_REASON}`,
  };
}

/**
 * One pass over the file: its items counted, and every problem (the format's, past `maxItems`, and
 * whatever `checkItem` says of an item) located at its line, up to MAX_PROBLEMS.
 */
export async function scanDatasetFile(
  file: StreamedFile & {
    maxItems: number;
    /** How to raise maxItems, said in the error. */
    raise?: string;
    checkItem?: (item: DatasetItem) => string[];
  },
): Promise<{ ok: true; count: number } | { ok: false; problems: DatasetFileProblem[] }> {
  const problems: DatasetFileProblem[] = [];
  let count = 0;
  const rows = rowsOf(file);
  try {
    for await (const row of rows) {
      if (row.item && count === file.maxItems) {
        problems.push(
          tooManyItems({
            line: row.line,
            max: file.maxItems,
            what: file.format === "csv" ? "row" : "item",
            ...(file.raise ? { raise: file.raise } : {}),
          }),
        );
        break;
      }
      problems.push(...row.problems);
      if (row.item) {
        count += 1;
        const unstorable = unstorableProblem(row.item, row.line);
        if (unstorable) problems.push(unstorable);
        for (const message of file.checkItem?.(row.item) ?? [])
          problems.push({ line: row.line, column: 1, message });
      }
      if (problems.length >= MAX_PROBLEMS) break;
    }
  } finally {
    await rows.return(undefined);
  }
  return problems.length > 0
    ? { ok: false, problems: problems.slice(0, MAX_PROBLEMS) }
    : { ok: true, count };
}

/** The items of a file scanDatasetFile has passed, again, one at a time. */
export async function* readDatasetItems(file: StreamedFile): AsyncGenerator<DatasetItem> {
  for await (const row of rowsOf(file)) if (row.item) yield row.item;
}
