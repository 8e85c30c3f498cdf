import type { EvalConfig, SuiteConfig, TreeNode } from "../config/types";
import type { CellCoordinates } from "./report";
import type { Candidate } from "./build-prompt";
import { matchWhen } from "./match-when";

// Expands a suite into cells (eval × matrix coordinates) and, per cell, the
// judges (panel models × jurors) and the number of judge calls it will make.
// Planning never calls a provider; `eval --explain` and the runner share it.

export interface JudgeInstance {
  model: string;
  /** 1-based juror number within its model. */
  juror: number;
  /** Display label: the model, with "#n" when there is a jury. */
  label: string;
}

export interface PlannedCell {
  id: string;
  name: string;
  eval: EvalConfig;
  cell: CellCoordinates | null;
  candidate?: Candidate;
  /** Set when the cell cannot be graded now; it is reported deferred with this note. */
  deferReason?: string;
  judges: JudgeInstance[];
  /** Calls one judge makes: applicable criteria, 1 for free-form, the longest path for a tree. */
  callsPerJudge: number;
  judgeCalls: number;
}

export interface PlanOptions {
  suite: SuiteConfig;
  /** The judge model when neither the eval nor the suite names one. */
  defaultModel: string;
  /** Why no eval can be graded at all (e.g. no API key), or undefined when judging is possible. */
  judgeUnavailable?: string;
  /** Only evals whose name matches run. */
  filter?: RegExp;
}

export function treeDepth(node: TreeNode): number {
  return "ask" in node ? 1 + Math.max(treeDepth(node.yes), treeDepth(node.no)) : 0;
}

function cellsOf(evalConfig: EvalConfig): (CellCoordinates | null)[] {
  const models = evalConfig.matrix?.models;
  const prompts = evalConfig.matrix?.prompts;
  if (!models && !prompts) return [null];
  const modelAxis: (string | undefined)[] = models ?? [undefined];
  const promptAxis: (string | undefined)[] = prompts ?? [undefined];
  return modelAxis.flatMap((model) =>
    promptAxis.map((prompt, i) => ({
      ...(model !== undefined ? { model } : {}),
      ...(prompt !== undefined ? { prompt, promptIndex: i + 1 } : {}),
    })),
  );
}

export function cellName(evalName: string, cell: CellCoordinates | null): string {
  if (!cell) return evalName;
  const parts: string[] = [];
  if (cell.model !== undefined) parts.push(`model=${cell.model}`);
  if (cell.promptIndex !== undefined) parts.push(`prompt=#${cell.promptIndex}`);
  return `${evalName} [${parts.join(", ")}]`;
}

function cellId(evalName: string, cell: CellCoordinates | null): string {
  if (!cell) return evalName;
  return [evalName, cell.model !== undefined ? `model=${cell.model}` : "", cell.promptIndex !== undefined ? `prompt=${cell.promptIndex}` : ""]
    .filter(Boolean)
    .join("::");
}

function deferReasonOf(evalConfig: EvalConfig, suite: SuiteConfig, judgeUnavailable?: string): string | undefined {
  if (evalConfig.response === undefined) {
    if (evalConfig.server === undefined) return "no response to grade and no server to run the prompt against";
    if (!(evalConfig.server in suite.servers)) return `server "${evalConfig.server}" is unknown (not in servers:)`;
    return `live agent runs are not available yet: this eval has no response, and its prompt would run against server "${evalConfig.server}"`;
  }
  return judgeUnavailable;
}

function callsPerJudge(evalConfig: EvalConfig, candidate: Candidate | undefined): number {
  const rubric = evalConfig.rubric;
  if (rubric.kind === "freeform") return 1;
  if (rubric.kind === "tree") return treeDepth(rubric.tree);
  // For a fixed response the `when:` predicates are known now, so skipped
  // criteria cost nothing and are not counted.
  return rubric.criteria.filter((c) => !candidate || matchWhen(c.when, candidate.response).applies).length;
}

export function planSuite(options: PlanOptions): PlannedCell[] {
  const { suite, defaultModel, judgeUnavailable, filter } = options;
  const cells: PlannedCell[] = [];
  for (const evalConfig of suite.evals) {
    if (filter && !filter.test(evalConfig.name)) continue;
    for (const cell of cellsOf(evalConfig)) {
      const models = evalConfig.judge.panel ?? [cell?.model ?? evalConfig.judge.model ?? defaultModel];
      const jury = evalConfig.judge.jury.size;
      const judges = models.flatMap((model) =>
        Array.from({ length: jury }, (_, i) => ({ model, juror: i + 1, label: jury > 1 ? `${model} #${i + 1}` : model })),
      );
      const candidate: Candidate | undefined =
        evalConfig.response !== undefined ? { prompt: cell?.prompt ?? evalConfig.prompt, response: evalConfig.response } : undefined;
      const deferReason = deferReasonOf(evalConfig, suite, judgeUnavailable);
      const perJudge = callsPerJudge(evalConfig, candidate);
      cells.push({
        id: cellId(evalConfig.name, cell),
        name: cellName(evalConfig.name, cell),
        eval: evalConfig,
        cell,
        candidate,
        deferReason,
        judges,
        callsPerJudge: perJudge,
        judgeCalls: deferReason ? 0 : perJudge * judges.length,
      });
    }
  }
  return cells;
}
