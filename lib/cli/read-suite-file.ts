import { readFile } from "node:fs/promises";
import path from "node:path";
import { loadSuite } from "../config/load-suite";
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
  return datasets.ok ? { ...loaded, value: datasets.value, text } : { ...datasets, text };
}
