import path from "node:path";
import { loadSuite } from "../config/load-suite";
import { candidateItemIssues } from "../config/check-candidates";
import { planSizeIssues } from "../config/plan-size";
import type { ConfigIssue, LoadResult, SuiteConfig } from "../config/types";
import { readDocuments } from "./read-documents";
import { readDatasets } from "./read-datasets";
import { readBoundedFile, SUITE_FILE } from "./read-bounded-file";

/**
 * Reads and loads a suite file; a missing or unreadable file is an issue like
 * any other. Issues name the file as the user wrote it.
 */
export async function readSuiteFile(input: {
  file: string;
  cwd: string;
}): Promise<LoadResult & { text?: string }> {
  const { file, cwd } = input;
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
  const loaded = loadSuite({ text, file });
  if (!loaded.ok) return { ...loaded, text };
  const read = await readSuiteAttachments({
    suite: loaded.value,
    suitePath: path.resolve(cwd, file),
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
}): Promise<{ ok: true; value: SuiteConfig } | { ok: false; issues: ConfigIssue[] }> {
  const documents = await readDocuments(input);
  if (!documents.ok) return documents;
  const datasets = await readDatasets({ suite: documents.value, suitePath: input.suitePath });
  if (!datasets.ok) return datasets;
  const fromFiles = Object.values(datasets.value.datasets ?? {})
    .filter((d) => d.file !== undefined)
    .map((d) => d.name);
  const itemIssues = candidateItemIssues({ suite: datasets.value, datasets: fromFiles });
  if (itemIssues.length > 0) return { ok: false, issues: itemIssues };
  // The items of dataset files count only now that they are read.
  const tooLarge = planSizeIssues(datasets.value);
  return tooLarge.length > 0 ? { ok: false, issues: tooLarge } : datasets;
}
