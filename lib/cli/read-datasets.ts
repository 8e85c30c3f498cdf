import { readFile } from "node:fs/promises";
import path from "node:path";
import { ReferenceDatasetJsonSchema, resolveDatasetItems } from "../config/dataset-schema";
import { describeZodError } from "../config/go-json";
import type { ConfigIssue, SuiteConfig } from "../config/types";

// Datasets named by file (`datasets: { answers: { file: answers.json } }`) are
// read here, relative to the suite file, in the Go package's ReferenceDataset
// JSON shape. A missing or malformed file is an issue like any other.

export async function readDatasets(input: { suite: SuiteConfig; suitePath: string }): Promise<{ ok: true; value: SuiteConfig } | { ok: false; issues: ConfigIssue[] }> {
  const { suite, suitePath } = input;
  if (!suite.datasets) return { ok: true, value: suite };
  const issues: ConfigIssue[] = [];
  const issue = (name: string, message: string) => issues.push({ file: suite.file, line: 1, column: 1, path: ["datasets", name, "file"], message, severity: "error" });
  const datasets = { ...suite.datasets };
  for (const [name, dataset] of Object.entries(datasets)) {
    if (dataset.file === undefined) continue;
    let text: string;
    try {
      text = await readFile(path.resolve(path.dirname(suitePath), dataset.file), "utf8");
    } catch (error) {
      issue(name, `cannot read dataset "${name}" from ${dataset.file}: ${(error as NodeJS.ErrnoException).code === "ENOENT" ? "file not found" : (error as Error).message}`);
      continue;
    }
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch (error) {
      issue(name, `dataset "${name}" (${dataset.file}) is not valid JSON: ${(error as Error).message}`);
      continue;
    }
    const parsed = ReferenceDatasetJsonSchema.safeParse(data);
    if (!parsed.success) {
      issue(name, `dataset "${name}" (${dataset.file}) is not a ReferenceDataset: ${describeZodError(parsed.error).join("; ")}`);
      continue;
    }
    const { unread: _unread, ...read } = dataset;
    datasets[name] = { ...read, items: resolveDatasetItems(parsed.data.items) };
  }
  return issues.length > 0 ? { ok: false, issues } : { ok: true, value: { ...suite, datasets } };
}
