import path from "node:path";
import { candidateItemCheck, noItemsProblem } from "../config/check-candidates";
import { datasetFormat, type DatasetConfig, type DatasetItem } from "../config/dataset-schema";
import { FILE_PLAN_LIMITS, type PlanLimits } from "../config/limits";
import { parseDatasetFile } from "../config/parse-dataset-file";
import { oversizedPromptCheck } from "../config/plan-size";
import type { ConfigIssue, SuiteConfig } from "../config/types";
import { checkBoundedFile, readBoundedFile } from "./read-bounded-file";
import { readDatasetItems, scanDatasetFile, type StreamedFile } from "./stream-dataset";

// Datasets named by file (`datasets: { answers: { file: answers.csv } }`) are
// read here, relative to the suite file. A ReferenceDataset JSON is parsed
// whole (its size is capped); a CSV or JSON Lines file is streamed: checked and
// counted in one pass (stream-dataset.ts), with the item rules of every eval
// that grades it, then either read again lazily as cells are planned (`stream`)
// or, for callers that want an array, read into one. A missing, too large or
// malformed file is an issue like any other, located in the dataset file
// itself (its line and column) where it can be.

type Read = { ok: true; value: SuiteConfig } | { ok: false; issues: ConfigIssue[] };

/** What every eval that grades a dataset's items says of one item: its candidate rules and prompt size. */
function itemChecks(suite: SuiteConfig, name: string): (item: DatasetItem) => string[] {
  const checks = suite.evals
    .filter((e) => e.candidates?.dataset === name && e.response === undefined)
    .flatMap((evalConfig) => {
      const candidate = candidateItemCheck({
        evalInput: evalConfig,
        generated: evalConfig.generates === true,
        dataset: name,
      });
      const prompt = oversizedPromptCheck(evalConfig);
      return [candidate, (item: DatasetItem) => [prompt(item) ?? []].flat()];
    });
  return (item) => checks.flatMap((check) => check(item));
}

async function readDataset(input: {
  suite: SuiteConfig;
  name: string;
  dataset: DatasetConfig & { file: string };
  suitePath: string;
  limits: PlanLimits;
  stream: boolean;
}): Promise<{ ok: true; value: DatasetConfig } | { ok: false; problems: ConfigIssue[] }> {
  const { suite, name, dataset, limits } = input;
  const shown = path.join(path.dirname(suite.file), dataset.file);
  const resolved = path.resolve(path.dirname(input.suitePath), dataset.file);
  const issue = (at: { line: number; column: number; message: string }, file = shown) => ({
    file,
    line: at.line,
    column: at.column,
    path: ["datasets", name, "file"],
    message: at.message,
    severity: "error" as const,
  });
  const cannotRead = (message: string) => ({
    ok: false as const,
    problems: [
      issue(
        {
          line: 1,
          column: 1,
          message: `cannot read dataset "${name}" from ${dataset.file}: ${message}`,
        },
        suite.file,
      ),
    ],
  });
  const { unread: _unread, ...rest } = dataset;
  const format = datasetFormat(dataset);
  if (format === "json") {
    const read = await readBoundedFile(resolved);
    if (!read.ok) return cannotRead(read.message);
    const parsed = parseDatasetFile({
      text: read.text,
      file: dataset.file,
      ...(dataset.columns ? { columns: dataset.columns } : {}),
    });
    if (!parsed.ok)
      return {
        ok: false,
        problems: parsed.problems.map((p) =>
          issue({ ...p, message: `dataset "${name}": ${p.message}` }),
        ),
      };
    return { ok: true, value: { ...rest, items: parsed.items } };
  }
  const checked = await checkBoundedFile(resolved, {
    limit: FILE_PLAN_LIMITS.streamedFileBytes,
    what: `a ${format === "csv" ? "CSV" : "JSONL"} dataset file`,
  });
  if (!checked.ok) return cannotRead(checked.message);
  const file: StreamedFile = {
    path: resolved,
    format,
    ...(dataset.columns ? { columns: dataset.columns } : {}),
  };
  const scanned = await scanDatasetFile({
    ...file,
    maxItems: limits.datasetItems,
    ...(limits.raise ? { raise: limits.raise.cells } : {}),
    checkItem: itemChecks(suite, name),
  });
  const graders = suite.evals.filter((e) => e.candidates?.dataset === name && !e.response);
  const problems = scanned.ok
    ? scanned.count === 0
      ? graders.map((e) => ({ line: 1, column: 1, message: noItemsProblem(name, e.name) }))
      : []
    : scanned.problems;
  if (!scanned.ok || problems.length > 0)
    return {
      ok: false,
      problems: problems.map((p) => issue({ ...p, message: `dataset "${name}": ${p.message}` })),
    };
  if (input.stream)
    return {
      ok: true,
      value: {
        ...rest,
        items: [],
        stream: { count: scanned.count, read: () => readDatasetItems(file) },
      },
    };
  const items: DatasetItem[] = [];
  for await (const item of readDatasetItems(file)) items.push(item);
  return { ok: true, value: { ...rest, items } };
}

export async function readDatasets(input: {
  suite: SuiteConfig;
  suitePath: string;
  /** The bounds of a file run from the CLI (file-limits.ts). */
  limits: PlanLimits;
  /** JSONL and CSV files stay streams (DatasetConfig.stream) rather than arrays of items. */
  stream?: boolean;
}): Promise<Read> {
  const { suite } = input;
  if (!suite.datasets) return { ok: true, value: suite };
  const issues: ConfigIssue[] = [];
  const datasets = { ...suite.datasets };
  for (const [name, dataset] of Object.entries(datasets)) {
    if (dataset.file === undefined) continue;
    const read = await readDataset({
      ...input,
      name,
      dataset: { ...dataset, file: dataset.file },
      stream: input.stream === true,
    });
    if (read.ok) datasets[name] = read.value;
    else issues.push(...read.problems);
  }
  return issues.length > 0 ? { ok: false, issues } : { ok: true, value: { ...suite, datasets } };
}
