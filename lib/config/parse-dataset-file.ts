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
  if (format === "csv") return parseDatasetCsv(input);
  if (format === "jsonl") return parseDatasetJsonl(input);
  return parseReferenceDataset(input.text);
}
