import { resolveDatasetItems, type DatasetInput, type DatasetItem } from "./dataset-schema";
import { TEMPLATE_FIELDS, templatePlaceholders } from "./prompt-template";
import type { DataPath } from "./yaml-locator";
import type { ConfigIssue, SuiteConfig } from "./types";

// The rules of `candidates: { dataset }` that zod's shape cannot say, and the
// prompt templates it enables. Inline items are checked at load time, at the
// item's own line; a dataset file is checked once the CLI has read it
// (`candidateItemIssues`), at the eval's line, since its items have none.

type Report = (path: DataPath, message: string) => void;

interface EvalShape {
  name: string;
  server?: string;
  prompt?: string;
  response?: string;
  document?: unknown;
  compare?: unknown;
  agent?: unknown;
  matrix?: { prompts?: string[]; agents?: string[] };
  candidates?: { dataset: string };
}

/** What is wrong with one item as a candidate of an eval; one message per problem. */
function itemProblems(input: {
  evalInput: Pick<EvalShape, "name" | "server" | "prompt" | "matrix">;
  dataset: string;
  items: DatasetItem[];
}): { index: number; message: string }[] {
  const { evalInput, dataset, items } = input;
  const problems: { index: number; message: string }[] = [];
  const seen = new Set<string>();
  const live = evalInput.server !== undefined;
  const templated = evalInput.prompt !== undefined || evalInput.matrix?.prompts !== undefined;
  items.forEach((item, index) => {
    const name = `item "${item.id}" of dataset "${dataset}"`;
    if (seen.has(item.id))
      problems.push({
        index,
        message: `${name}: item ids must be unique, since eval "${evalInput.name}" names a result after each`,
      });
    seen.add(item.id);
    if (!live && item.expectedOutput === undefined) {
      problems.push({
        index,
        message: `${name} has no expected_output, which eval "${evalInput.name}" grades as its response (or give the eval a server: to run the item's input live)`,
      });
    }
    if (live && !templated && item.input === undefined) {
      problems.push({
        index,
        message: `${name} has no input for eval "${evalInput.name}" to run against server "${evalInput.server}" (or give the eval a prompt: template)`,
      });
    }
  });
  if (items.length === 0)
    problems.push({
      index: -1,
      message: `dataset "${dataset}" has no items: eval "${evalInput.name}" would grade nothing`,
    });
  return problems;
}

function checkTemplates(input: {
  evalInput: EvalShape;
  path: DataPath;
  error: Report;
  warn: Report;
}): void {
  const { evalInput, path, error, warn } = input;
  const prompts: [DataPath, string][] = [
    ...(evalInput.prompt !== undefined
      ? [[[...path, "prompt"], evalInput.prompt] as [DataPath, string]]
      : []),
    ...(evalInput.matrix?.prompts ?? []).map((p, i): [DataPath, string] => [
      [...path, "matrix", "prompts", i],
      p,
    ]),
  ];
  for (const [at, text] of prompts) {
    const names = templatePlaceholders(text);
    if (names.length === 0) continue;
    if (!evalInput.candidates) {
      warn(
        at,
        `{{${names[0]}}} is filled only in an eval with candidates: { dataset: ... }; here the prompt is sent as written`,
      );
      continue;
    }
    for (const name of names) {
      if (!(TEMPLATE_FIELDS as readonly string[]).includes(name))
        error(
          at,
          `unknown placeholder {{${name}}}: a dataset item fills ${TEMPLATE_FIELDS.map((f) => `{{${f}}}`).join(", ")}`,
        );
    }
  }
}

export function checkCandidatesEval(input: {
  evalInput: EvalShape;
  datasets: Record<string, DatasetInput> | undefined;
  path: DataPath;
  error: Report;
  warn: Report;
}): void {
  const { evalInput, datasets, path, error } = input;
  checkTemplates(input);
  const candidates = evalInput.candidates;
  if (!candidates) return;
  for (const field of ["response", "document", "compare"] as const) {
    if (evalInput[field] !== undefined)
      error(
        [...path, field],
        `this eval's candidates come from dataset "${candidates.dataset}"; it takes no ${field}`,
      );
  }
  if (evalInput.server === undefined) {
    if (evalInput.agent !== undefined)
      error(
        [...path, "agent"],
        "agent: configures a live run, but without server: this eval grades each item's expected_output; add server: to run each item's input live",
      );
    if (evalInput.matrix?.agents)
      error(
        [...path, "matrix", "agents"],
        "matrix.agents varies the live agent, but without server: this eval grades each item's expected_output",
      );
  }
  const dataset = datasets?.[candidates.dataset];
  if (!dataset) {
    const names = Object.keys(datasets ?? {});
    error(
      [...path, "candidates", "dataset"],
      `unknown dataset "${candidates.dataset}"; ${names.length ? `defined datasets: ${names.join(", ")}` : "the suite has no datasets: map"}`,
    );
    return;
  }
  // A file's items are checked once it is read (candidateItemIssues).
  if (dataset.items === undefined) return;
  for (const problem of itemProblems({
    evalInput,
    dataset: candidates.dataset,
    items: resolveDatasetItems(dataset.items),
  })) {
    error(
      problem.index < 0
        ? ["datasets", candidates.dataset]
        : ["datasets", candidates.dataset, "items", problem.index],
      problem.message,
    );
  }
}

/** The same item rules for datasets read from files, located at each eval that takes its candidates from them. */
export function candidateItemIssues(input: {
  suite: SuiteConfig;
  datasets: string[];
}): ConfigIssue[] {
  const { suite } = input;
  return suite.evals.flatMap((evalConfig) => {
    const name = evalConfig.candidates?.dataset;
    const dataset =
      name !== undefined && input.datasets.includes(name) ? suite.datasets?.[name] : undefined;
    if (!dataset || name === undefined) return [];
    return itemProblems({ evalInput: evalConfig, dataset: name, items: dataset.items }).map(
      (problem): ConfigIssue => ({
        ...evalConfig.location,
        path: ["datasets", name, "file"],
        message: `${dataset.file}: ${problem.message}`,
        severity: "error",
      }),
    );
  });
}
