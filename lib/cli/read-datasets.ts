import path from "node:path";
import { parseDatasetFile } from "../config/parse-dataset-file";
import type { ConfigIssue, SuiteConfig } from "../config/types";
import { readBoundedFile } from "./read-bounded-file";

// Datasets named by file (`datasets: { answers: { file: answers.csv } }`) are
// read here, relative to the suite file: the Go package's ReferenceDataset
// JSON, a CSV or JSON Lines (lib/config/parse-dataset-file.ts). A missing,
// too large or malformed file is an issue like any other, located in the
// dataset file itself (its line and column) where it can be.

export async function readDatasets(input: {
  suite: SuiteConfig;
  suitePath: string;
}): Promise<{ ok: true; value: SuiteConfig } | { ok: false; issues: ConfigIssue[] }> {
  const { suite, suitePath } = input;
  if (!suite.datasets) return { ok: true, value: suite };
  const issues: ConfigIssue[] = [];
  const datasets = { ...suite.datasets };
  for (const [name, dataset] of Object.entries(datasets)) {
    if (dataset.file === undefined) continue;
    // The file as the user would open it: relative to where the suite was named from.
    const shown = path.join(path.dirname(suite.file), dataset.file);
    const read = await readBoundedFile(path.resolve(path.dirname(suitePath), dataset.file));
    if (!read.ok) {
      issues.push({
        file: suite.file,
        line: 1,
        column: 1,
        path: ["datasets", name, "file"],
        message: `cannot read dataset "${name}" from ${dataset.file}: ${read.message}`,
        severity: "error",
      });
      continue;
    }
    const parsed = parseDatasetFile({
      text: read.text,
      file: dataset.file,
      ...(dataset.format ? { format: dataset.format } : {}),
      ...(dataset.columns ? { columns: dataset.columns } : {}),
    });
    if (!parsed.ok) {
      for (const problem of parsed.problems) {
        issues.push({
          file: shown,
          line: problem.line,
          column: problem.column,
          path: ["datasets", name, "file"],
          message: `dataset "${name}": ${problem.message}`,
          severity: "error",
        });
      }
      continue;
    }
    const { unread: _unread, ...rest } = dataset;
    datasets[name] = { ...rest, items: parsed.items };
  }
  return issues.length > 0 ? { ok: false, issues } : { ok: true, value: { ...suite, datasets } };
}
