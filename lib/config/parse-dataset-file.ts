import {
  datasetFormat,
  ReferenceDatasetJsonSchema,
  resolveDatasetItems,
  type DatasetColumnsInput,
  type DatasetFormat,
} from "./dataset-schema";
import { jsonErrorPlace, type ParseDatasetResult } from "./dataset-file-problem";
import { describeZodError } from "./go-json";
import { parseDatasetCsv } from "./parse-dataset-csv";
import { parseDatasetJsonl } from "./parse-dataset-jsonl";
import {
  describeUnstorable,
  unstorableAt,
  unstorableStrings,
  UNSTORABLE_REASON,
} from "./storable-text";
import { positionsIn } from "./yaml-locator";

// The text of a dataset file as items, in its format: the Go package's
// ReferenceDataset JSON, CSV or JSON Lines. Pure (the CLI reads the file and
// checks its size first); every problem has a line and column in the file.

function parseReferenceDataset(text: string): ParseDatasetResult {
  let data: unknown;
  try {
    data = JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch (error) {
    return {
      ok: false,
      problems: [
        {
          ...jsonErrorPlace((error as Error).message),
          message: `not valid JSON: ${(error as Error).message}`,
        },
      ],
    };
  }
  const parsed = ReferenceDatasetJsonSchema.safeParse(data);
  if (!parsed.success)
    return {
      ok: false,
      problems: [
        {
          line: 1,
          column: 1,
          message: `not a ReferenceDataset: ${describeZodError(parsed.error).join("; ")}`,
        },
      ],
    };
  return { ok: true, items: resolveDatasetItems(parsed.data.items) };
}

export function parseDatasetFile(input: {
  text: string;
  file: string;
  format?: DatasetFormat;
  columns?: DatasetColumnsInput;
}): ParseDatasetResult {
  const format = datasetFormat(input);
  const parsed =
    format === "csv"
      ? parseDatasetCsv(input)
      : format === "jsonl"
        ? parseDatasetJsonl(input)
        : parseReferenceDataset(input.text);
  return parsed.ok ? storableItems(parsed, input.text) : parsed;
}

/** A JSON escape of a NUL or of a surrogate that a JSON file may hold (`\u0000`, `\ud800`): where to point when the text has no raw one. */
const UNSTORABLE_ESCAPE = /\\u0000|\\u[dD][89a-fA-F][0-9a-fA-F]{2}/;

/**
 * Items whose text Postgres cannot store (a NUL, an unpaired surrogate: a raw
 * one in a CSV, a `\u0000` escape in JSON) are refused here, at the file, as
 * the loader refuses a suite's: stored, the run's results would fail.
 */
function storableItems(
  parsed: ParseDatasetResult & { ok: true },
  text: string,
): ParseDatasetResult {
  const [found] = unstorableStrings(parsed.items, 1);
  if (!found) return parsed;
  const raw = unstorableAt(text);
  const offset = raw !== -1 ? raw : (UNSTORABLE_ESCAPE.exec(text)?.index ?? 0);
  const [index, ...field] = found.path;
  return {
    ok: false,
    problems: [
      {
        ...positionsIn(text)(offset),
        message: `item ${Number(index) + 1}${field.length ? ` (${field.join(".")})` : ""} contains ${describeUnstorable(found.text, unstorableAt(found.text))}, ${UNSTORABLE_REASON}`,
      },
    ],
  };
}
