import { readFile } from "node:fs/promises";
import path from "node:path";
import { loadSuite } from "../config/load-suite";
import { candidateItemIssues } from "../config/check-candidates";
import type { LoadResult } from "../config/types";
import { readDocuments } from "./read-documents";
import { readDatasets } from "./read-datasets";

/**
 * Reads and loads a suite file; a missing or unreadable file is an issue like
 * any other. Issues name the file as the user wrote it.
 */
export async function readSuiteFile(input: { file: string; cwd: string }): Promise<LoadResult & { text?: string }> {
  const { file, cwd } = input;
  let text: string;
  try {
    text = await readFile(path.resolve(cwd, file), "utf8");
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === "ENOENT" ? "file not found" : (error as Error).message;
    return { ok: false, issues: [{ file, line: 1, column: 1, path: [], message: `cannot read the suite: ${reason}`, severity: "error" }] };
  }
  const loaded = loadSuite({ text, file });
  if (!loaded.ok) return { ...loaded, text };
  const documents = await readDocuments({ suite: loaded.value, suitePath: path.resolve(cwd, file) });
  if (!documents.ok) return { ...documents, text };
  const datasets = await readDatasets({ suite: documents.value, suitePath: path.resolve(cwd, file) });
  if (!datasets.ok) return { ...datasets, text };
  // Items read from a file are checked as candidates now; inline ones were checked by loadSuite.
  const fromFiles = Object.values(datasets.value.datasets ?? {}).filter((d) => d.file !== undefined).map((d) => d.name);
  const itemIssues = candidateItemIssues({ suite: datasets.value, datasets: fromFiles });
  return itemIssues.length > 0 ? { ok: false, issues: itemIssues, text } : { ...loaded, value: datasets.value, text };
}
