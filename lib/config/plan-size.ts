import { BROWSER_PLAN_LIMITS, LIMITS, formatCount, type PlanLimits } from "./limits";
import { datasetSize } from "./dataset-schema";
import { renderedPromptLengths } from "./prompt-template";
import type { ConfigIssue, EvalConfig, SuiteConfig, TreeNode } from "./types";
import type { DatasetItem } from "./dataset-schema";

// How much a suite asks for, by arithmetic on its counts: cells (dataset
// items × matrix cells) and judge calls (cells × judges × calls per judge).
// The loader refuses a suite over the limits before anything is expanded,
// and the engine's planner checks the same figures before it expands cells,
// so planning, `eval --explain` and the editor's plan stay bounded work.
// The counts are upper bounds: a `when:` that skips a criterion is not
// known until the candidate is.

interface EvalPlanSize {
  cells: number;
  judgeCalls: number;
  /** The factors of the cell count, for messages: [["items", 500], ["models", 3]]. */
  cellFactors: [string, number][];
  /** The factors of the judge calls per cell. */
  callFactors: [string, number][];
}

/** Questions on a tree's longest path: the calls one judge makes at most. */
export function treeDepth(node: TreeNode): number {
  return "ask" in node ? 1 + Math.max(treeDepth(node.yes), treeDepth(node.no)) : 0;
}

function cellFactorsOf(
  evalConfig: EvalConfig,
  suite: SuiteConfig,
): [string, number][] | "deferred" {
  const factors: [string, number][] = [];
  const name = evalConfig.candidates?.dataset;
  if (name !== undefined && evalConfig.response === undefined) {
    const dataset = suite.datasets?.[name];
    // An unknown or unread dataset plans one deferred cell.
    if (!dataset || dataset.unread) return "deferred";
    factors.push(["items", datasetSize(dataset)]);
  }
  const matrix = evalConfig.matrix;
  if (matrix?.agents) factors.push(["agents", matrix.agents.length]);
  if (matrix?.models) factors.push(["models", matrix.models.length]);
  if (matrix?.prompts) factors.push(["prompts", matrix.prompts.length]);
  return factors;
}

const product = (factors: [string, number][]) => factors.reduce((n, [, f]) => n * f, 1);

function callsPerJudge(evalConfig: EvalConfig, suite: SuiteConfig): [string, number] {
  const rubric = evalConfig.rubric;
  if (rubric.kind === "freeform") return ["call", 1];
  if (rubric.kind === "tree") return ["questions", treeDepth(rubric.tree)];
  if (rubric.kind === "categories")
    return rubric.rubricSet.evaluationType === "holistic"
      ? ["call", 1]
      : ["categories", rubric.rubricSet.categories.length];
  if (rubric.kind === "pairwise") {
    const source = rubric.comparison.cells
      ? suite.evals.find((e) => e.name === rubric.comparison.cells!.eval)
      : undefined;
    // At most one pair per cell of the source eval, each judged in both orders.
    const pairs = source ? evalPlanSize(source, suite).cells : rubric.comparison.items.length;
    return ["pair orders", pairs * 2];
  }
  return ["criteria", rubric.criteria.length];
}

function evalPlanSize(evalConfig: EvalConfig, suite: SuiteConfig): EvalPlanSize {
  const cellFactors = cellFactorsOf(evalConfig, suite);
  if (cellFactors === "deferred")
    return { cells: 1, judgeCalls: 0, cellFactors: [], callFactors: [] };
  const cells = product(cellFactors);
  const judges: [string, number][] = [];
  if (evalConfig.judge.panel) judges.push(["panel models", evalConfig.judge.panel.length]);
  if (evalConfig.judge.jury.size > 1) judges.push(["jurors", evalConfig.judge.jury.size]);
  const callFactors: [string, number][] = [...judges, callsPerJudge(evalConfig, suite)];
  return { cells, judgeCalls: cells * product(callFactors), cellFactors, callFactors };
}

function spelled(factors: [string, number][], total: number, unit: string): string {
  const parts = factors.map(([name, n]) => `${formatCount(n)} ${name}`);
  return parts.length > 1
    ? `${parts.join(" × ")} = ${formatCount(total)} ${unit}`
    : `${formatCount(total)} ${unit}`;
}

/**
 * Per item of a dataset, what is wrong with the prompts an eval fills from it (a template filled
 * past the limit), if anything; a streamed dataset file is checked with it item by item as it is read.
 */
export function oversizedPromptCheck(
  evalConfig: EvalConfig,
): (item: DatasetItem) => string | undefined {
  const templates = [evalConfig.prompt, ...(evalConfig.matrix?.prompts ?? [])].filter(
    (t): t is string => t !== undefined && t.includes("{{"),
  );
  const lengths = templates.map(renderedPromptLengths);
  return (item) => {
    for (const lengthOf of lengths) {
      const length = lengthOf(item);
      if (length > LIMITS.suiteChars)
        return `eval "${evalConfig.name}": its prompt filled from item "${item.id}" would be ${formatCount(length)} characters; a prompt may be at most ${formatCount(LIMITS.suiteChars)}`;
    }
    return undefined;
  };
}

/** The first prompt template of an eval that one of its dataset items fills past the limit, if any. */
function oversizedPrompt(evalConfig: EvalConfig, suite: SuiteConfig): string | undefined {
  const dataset = evalConfig.candidates
    ? suite.datasets?.[evalConfig.candidates.dataset]
    : undefined;
  if (!dataset || evalConfig.response !== undefined) return undefined;
  const check = oversizedPromptCheck(evalConfig);
  for (const item of dataset.items) {
    const problem = check(item);
    if (problem) return problem;
  }
  return undefined;
}

/**
 * Located errors for a suite that plans more cells or judge calls than a suite may, or prompts
 * larger than a suite may be; the bounds are the browser's unless the caller (the CLI, for a file)
 * passes its own.
 */
export function planSizeIssues(
  suite: SuiteConfig,
  limits: PlanLimits = BROWSER_PLAN_LIMITS,
): ConfigIssue[] {
  const sizes = suite.evals.map((evalConfig) => ({
    evalConfig,
    size: evalPlanSize(evalConfig, suite),
  }));
  const issues: ConfigIssue[] = [];
  const error = (evalConfig: EvalConfig, message: string) =>
    issues.push({
      ...evalConfig.location,
      path: ["evals", suite.evals.indexOf(evalConfig)],
      message,
      severity: "error",
    });
  for (const evalConfig of suite.evals) {
    const oversized = oversizedPrompt(evalConfig, suite);
    if (oversized) error(evalConfig, oversized);
  }
  const raise = (how: string | undefined) => (how ? ` (${how})` : "");
  const cellLimit = `a suite may plan at most ${formatCount(limits.cells)} cells${raise(limits.raise?.cells)}`;
  const callLimit = `a suite may plan at most ${formatCount(limits.judgeCalls)} judge calls${raise(limits.raise?.judgeCalls)}`;
  for (const { evalConfig, size } of sizes) {
    if (size.cells > limits.cells)
      error(
        evalConfig,
        `eval "${evalConfig.name}" plans ${spelled(size.cellFactors, size.cells, "cells")}; ${cellLimit}`,
      );
    else if (size.judgeCalls > limits.judgeCalls) {
      const factors: [string, number][] = [["cells", size.cells], ...size.callFactors];
      error(
        evalConfig,
        `eval "${evalConfig.name}" plans ${spelled(factors, size.judgeCalls, "judge calls")}; ${callLimit}`,
      );
    }
  }
  if (issues.length > 0) return issues;
  const largest = (key: "cells" | "judgeCalls") =>
    sizes.reduce((a, b) => (b.size[key] > a.size[key] ? b : a));
  const total = (key: "cells" | "judgeCalls") => sizes.reduce((n, s) => n + s.size[key], 0);
  const cells = total("cells");
  const calls = total("judgeCalls");
  if (cells > limits.cells) {
    const { evalConfig, size } = largest("cells");
    error(
      evalConfig,
      `the suite plans ${formatCount(cells)} cells in all (eval "${evalConfig.name}": ${formatCount(size.cells)}); ${cellLimit}`,
    );
  } else if (calls > limits.judgeCalls) {
    const { evalConfig, size } = largest("judgeCalls");
    error(
      evalConfig,
      `the suite plans ${formatCount(calls)} judge calls in all (eval "${evalConfig.name}": ${formatCount(size.judgeCalls)}); ${callLimit}`,
    );
  }
  return issues;
}
