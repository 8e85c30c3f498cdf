import * as z from "zod";
import { goList, omitempty } from "./go-json";
import { LIMITS, atMost } from "./limits";

// Reference datasets (the Go package's ReferenceDataset): items with an
// input, expected output(s), context and annotations (human or other labels).
// In the YAML language a dataset is inline `items:` or a JSON `file:` in the
// Go shape; `rubric-studio calibrate` grades annotated items and compares.

export const AnnotationSchema = z
  .strictObject({
    name: z
      .string()
      .min(1)
      .describe(
        "What is labelled: a criterion name, a category id, or score for a whole free-form rubric.",
      ),
    score: z.number().min(0).max(1).optional().describe("A score in 0..1."),
    label: z.string().optional().describe("A categorical label: pass, partial or fail."),
    explanation: z.string().optional(),
    annotator_id: z.string().optional(),
    annotator_type: z.string().optional().describe("human, llm, rule..."),
  })
  .describe("One label on a reference item.");

export const DatasetItemSchema = z
  .strictObject({
    id: z.string().min(1).optional(),
    input: z.string().optional().describe("The prompt that produced the output."),
    expected_output: z
      .string()
      .optional()
      .describe("The reference output: the candidate that calibrate grades."),
    expected_outputs: z
      .array(z.string())
      .optional()
      .describe(
        "Several acceptable outputs. With a generated or live candidate, each goes to the judge as a known-good reference, beside expected_output.",
      ),
    context: z.array(z.string()).optional(),
    annotations: z.array(AnnotationSchema).optional(),
    source: z.string().optional(),
    tags: z.array(z.string()).optional(),
  })
  .describe("A reference item.");

export const DatasetCandidatesSchema = z
  .strictObject({
    dataset: z
      .string()
      .min(1)
      .describe(
        "A dataset under datasets:. Each item is graded as its own result, named by its id.",
      ),
  })
  .describe(
    "Take this eval's candidates from a dataset: each item becomes one result (`name " +
      "[item=ID]`). Without server: the item's expected_output is the fixed response and its " +
      "input the prompt. With server: the item's input is the prompt the live agent runs. " +
      "prompt: and matrix.prompts may use {{input}}, {{context}}, {{expected_output}} and " +
      "{{id}}.",
  );

const datasetItemsMax = atMost(LIMITS.datasetItems, "a dataset has at most {n} items");

const columnName = z
  .string()
  .min(1)
  .max(LIMITS.nameChars, atMost(LIMITS.nameChars, "at most {n} characters"));

export const DatasetColumnsSchema = z
  .strictObject({
    id: columnName
      .optional()
      .describe(
        "The column (CSV header) or field (JSONL key) of the item's id; default id, else the row number.",
      ),
    input: columnName.optional().describe("The column of the prompt; default input."),
    expected_output: columnName
      .optional()
      .describe(
        "The column of the reference output (the candidate a fixed eval grades); default expected_output.",
      ),
    expected_outputs: z
      .union([columnName, z.array(columnName).min(1).max(LIMITS.criteria)])
      .optional()
      .describe(
        "The column (or columns, in order) of more acceptable outputs; default expected_outputs. " +
          "A CSV cell holds one output, or several as a JSON list of strings " +
          '(["Paris", "paris"]); a JSONL field holds a string or a list of strings.',
      ),
    context: z
      .union([columnName, z.array(columnName).min(1).max(LIMITS.criteria)])
      .optional()
      .describe(
        "The column (or columns, in order) of the item's context; default context. A JSONL " +
          "field may hold a string or a list of strings.",
      ),
    label: z
      .union([
        columnName,
        z.strictObject({
          column: columnName,
          name: columnName.describe(
            "What the label is for: a criterion name, a category id, or score (the whole rubric).",
          ),
        }),
      ])
      .optional()
      .describe(
        "The column of a human label: a score in 0..1 or pass/partial/fail, annotated on " +
          "the whole rubric (score) or, in the { column, name } form, on one criterion or " +
          "category; default label.",
      ),
  })
  .describe(
    "Which column (CSV) or field (JSONL) holds each part of an item. A column named here " +
      "must exist; the defaults are the item's own field names and may be absent.",
  );

export const DATASET_FORMATS = ["json", "csv", "jsonl"] as const;
export type DatasetFormat = (typeof DATASET_FORMATS)[number];
export type DatasetColumnsInput = z.output<typeof DatasetColumnsSchema>;

export const DatasetSchema = z
  .strictObject({
    file: z
      .string()
      .min(1)
      .optional()
      .describe(
        "A dataset file, relative to the suite file: a ReferenceDataset JSON (the Go " +
          "package's shape), a CSV with a header row, or JSON Lines (one object per line). " +
          "The format follows the extension (.csv, .jsonl or .ndjson, else JSON) unless " +
          "format: says.",
      ),
    format: z
      .enum(DATASET_FORMATS)
      .optional()
      .describe(
        "The file's format when its extension does not say: json (ReferenceDataset), csv or jsonl.",
      ),
    columns: DatasetColumnsSchema.optional(),
    description: z.string().optional(),
    items: z
      .array(DatasetItemSchema)
      .max(LIMITS.datasetItems, datasetItemsMax)
      .optional()
      .describe("Inline reference items."),
  })
  .superRefine((dataset, ctx) => {
    if (dataset.file === undefined) {
      for (const key of ["format", "columns"] as const) {
        if (dataset[key] !== undefined)
          ctx.addIssue({
            code: "custom",
            path: [key],
            message: `${key}: describes a dataset file; add file: (a .csv or .jsonl file) or remove it`,
          });
      }
    } else if (dataset.columns !== undefined && datasetFormat(dataset) === "json") {
      ctx.addIssue({
        code: "custom",
        path: ["columns"],
        message:
          "columns: maps a CSV or JSONL file; a ReferenceDataset JSON file has fixed field " +
          "names (give the file a .csv or .jsonl extension, or format: csv | jsonl)",
      });
    }
  })
  .describe(
    "A reference dataset: items: [...] inline, or file: (ReferenceDataset JSON, CSV or " +
      "JSONL) with an optional columns: mapping.",
  );

/** The format of a dataset file: format:, else its extension. */
export function datasetFormat(dataset: { file?: string; format?: DatasetFormat }): DatasetFormat {
  if (dataset.format !== undefined) return dataset.format;
  const file = (dataset.file ?? "").toLowerCase();
  if (file.endsWith(".csv")) return "csv";
  if (file.endsWith(".jsonl") || file.endsWith(".ndjson")) return "jsonl";
  return "json";
}

/** The Go package's ReferenceDataset JSON. */
const AnnotationJson = z.object({
  name: z.string(),
  score: omitempty(z.number()),
  label: omitempty(z.string()),
  explanation: omitempty(z.string()),
  annotator_id: omitempty(z.string()),
  annotator_type: omitempty(z.string()),
});
export const ReferenceDatasetJsonSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: omitempty(z.string()),
  version: omitempty(z.string()),
  items: goList(
    z.object({
      id: omitempty(z.string()),
      input: omitempty(z.string()),
      expected_output: omitempty(z.string()),
      expected_outputs: omitempty(z.array(z.string())),
      context: omitempty(z.array(z.string())),
      annotations: omitempty(z.array(AnnotationJson)),
      source: omitempty(z.string()),
      tags: omitempty(z.array(z.string())),
      metadata: omitempty(z.record(z.string(), z.unknown())),
    }),
  ).refine((items) => items.length <= LIMITS.datasetItems, datasetItemsMax),
  tags: omitempty(z.array(z.string())),
  metadata: omitempty(z.record(z.string(), z.unknown())),
});

export type DatasetInput = z.output<typeof DatasetSchema>;

/** The resolved dataset: items numbered; a file's items are filled in by whoever can read files. */
export interface DatasetConfig {
  name: string;
  file?: string;
  /** A file dataset's format and column mapping (read by the CLI). */
  format?: DatasetFormat;
  columns?: DatasetColumnsInput;
  items: DatasetItem[];
  /** A file dataset whose file has not been read in this process (the loader does no I/O; the CLI reads it). */
  unread?: boolean;
  /**
   * A JSONL or CSV file the CLI reads as a stream: counted and checked in one pass, then read
   * again item by item as cells are planned (`items` is then empty: never held whole).
   */
  stream?: DatasetStream;
}

export interface DatasetStream {
  /** Items in the file, counted by the checking pass. */
  count: number;
  /** The items again, in the file's order. */
  read: () => AsyncIterable<DatasetItem>;
}

/** How many items a dataset has, whether held or streamed. */
export function datasetSize(dataset: DatasetConfig): number {
  return dataset.stream ? dataset.stream.count : dataset.items.length;
}

export interface DatasetItem {
  id: string;
  input?: string;
  expectedOutput?: string;
  /** More acceptable outputs: with expected_output, the judge's reference for a generated or live candidate. */
  expectedOutputs?: string[];
  /** Extra context (e.g. retrieved documents), for {{context}} in a prompt template. */
  context?: string[];
  annotations: {
    name: string;
    score?: number;
    label?: string;
    annotatorType?: string;
    annotatorId?: string;
  }[];
}

export function resolveDatasetItems(
  items: {
    id?: string;
    input?: string;
    expected_output?: string;
    expected_outputs?: string[];
    context?: string[];
    annotations?: {
      name: string;
      score?: number;
      label?: string;
      annotator_type?: string;
      annotator_id?: string;
    }[];
  }[],
): DatasetItem[] {
  return items.map((item, i) => ({
    id: item.id ?? String(i + 1),
    ...(item.input !== undefined ? { input: item.input } : {}),
    ...(item.expected_output !== undefined ? { expectedOutput: item.expected_output } : {}),
    ...(item.expected_outputs !== undefined ? { expectedOutputs: item.expected_outputs } : {}),
    ...(item.context !== undefined ? { context: item.context } : {}),
    annotations: (item.annotations ?? []).map((a) => ({
      name: a.name,
      ...(a.score !== undefined ? { score: a.score } : {}),
      ...(a.label !== undefined ? { label: a.label } : {}),
      ...(a.annotator_type !== undefined ? { annotatorType: a.annotator_type } : {}),
      ...(a.annotator_id !== undefined ? { annotatorId: a.annotator_id } : {}),
    })),
  }));
}
