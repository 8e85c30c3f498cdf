import path from "node:path";
import { loadSuite } from "../config/load-suite";
import { candidateItemIssues } from "../config/check-candidates";
import { planSizeIssues } from "../config/plan-size";
import type { ConfigIssue, LoadResult, SuiteConfig } from "../config/types";
import { readDocuments } from "./read-documents";
import { datasetFormat } from "../config/dataset-schema";
import type { PlanLimits } from "../config/limits";
import { fileLimits } from "./file-limits";
import { readDatasets } from "./read-datasets";
import { readBoundedFile, SUITE_FILE } from "./read-bounded-file";

/**
 * Reads and loads a suite file; a missing or unreadable file is an issue like
 * any other. Issues name the file as the user wrote it.
 */
export async function readSuiteFile(input: {
  file: string;
  cwd: string;
  /** A file's bounds (file-limits.ts); default the CLI's with no setting. */
  limits?: PlanLimits;
  /** JSONL and CSV datasets stay streams (for callers that plan lazily). */
  stream?: boolean;
}): Promise<LoadResult & { text?: string }> {
  const { file, cwd } = input;
  const limits = input.limits ?? fileLimits({});
  const contents = await readBoundedFile(path.resolve(cwd, file), SUITE_FILE);
  if (!contents.ok) {
    return {
      ok: false,
      issues: [
        {
          file,
          line: 1,
          column: 1,
          path: [],
          message: `cannot read the suite: ${contents.message}`,
          severity: "error",
        },
      ],
    };
  }
  const text = contents.text;
  const loaded = loadSuite({ text, file, limits });
  if (!loaded.ok) return { ...loaded, text };
  const read = await readSuiteAttachments({
    suite: loaded.value,
    suitePath: path.resolve(cwd, file),
    limits,
    ...(input.stream ? { stream: true } : {}),
  });
  return read.ok ? { ...loaded, value: read.value, text } : { ...read, text };
}

/**
 * The files a loaded suite names (documents, datasets), read relative to the
 * suite file, and dataset items checked as candidates (inline ones were
 * checked by loadSuite). `resume` reads them again for a stored suite.
 */
export async function readSuiteAttachments(input: {
  suite: SuiteConfig;
  suitePath: string;
  limits?: PlanLimits;
  stream?: boolean;
}): Promise<{ ok: true; value: SuiteConfig } | { ok: false; issues: ConfigIssue[] }> {
  const limits = input.limits ?? fileLimits({});
  const documents = await readDocuments(input);
  if (!documents.ok) return documents;
  const datasets = await readDatasets({
    suite: documents.value,
    suitePath: input.suitePath,
    limits,
    ...(input.stream ? { stream: true } : {}),
  });
  if (!datasets.ok) return datasets;
  // JSONL and CSV files were checked item by item as they were streamed (read-datasets.ts).
  const fromFiles = Object.values(datasets.value.datasets ?? {})
    .filter((d) => d.file !== undefined && datasetFormat(d) === "json")
    .map((d) => d.name);
  const itemIssues = candidateItemIssues({ suite: datasets.value, datasets: fromFiles });
  if (itemIssues.length > 0) return { ok: false, issues: itemIssues };
  // The items of dataset files count only now that they are read.
  const tooLarge = planSizeIssues(datasets.value, limits);
  return tooLarge.length > 0 ? { ok: false, issues: tooLarge } : datasets;
}
