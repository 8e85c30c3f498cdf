import type { EvalConfig, SuiteConfig, TreeNode } from "../config/types";
import type { CellCoordinates } from "./report";
import type { Candidate } from "./build-prompt";
import type { LiveRequest } from "./live-port";
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
  /** For an eval without a response whose server is known: what the live agent would run. */
  live?: Pick<LiveRequest, "serverName" | "server" | "prompt" | "agent">;
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
  /** The live agent's model when neither the matrix, the eval nor the suite names one. Default: defaultModel. */
  defaultAgentModel?: string;
  /** Why live runs cannot happen in this context (e.g. no live port), or undefined when they can. */
  liveUnavailable?: string;
  /** Only evals whose name matches run. */
  filter?: RegExp;
}

export function treeDepth(node: TreeNode): number {
  return "ask" in node ? 1 + Math.max(treeDepth(node.yes), treeDepth(node.no)) : 0;
}

function cellsOf(evalConfig: EvalConfig): (CellCoordinates | null)[] {
  const agents = evalConfig.matrix?.agents;
  const models = evalConfig.matrix?.models;
  const prompts = evalConfig.matrix?.prompts;
  if (!agents && !models && !prompts) return [null];
  const agentAxis: (string | undefined)[] = agents ?? [undefined];
  const modelAxis: (string | undefined)[] = models ?? [undefined];
  const promptAxis: (string | undefined)[] = prompts ?? [undefined];
  return agentAxis.flatMap((agent) =>
    modelAxis.flatMap((model) =>
      promptAxis.map((prompt, i) => ({
        ...(agent !== undefined ? { agent } : {}),
        ...(model !== undefined ? { model } : {}),
        ...(prompt !== undefined ? { prompt, promptIndex: i + 1 } : {}),
      })),
    ),
  );
}

export function cellName(evalName: string, cell: CellCoordinates | null): string {
  if (!cell) return evalName;
  const parts: string[] = [];
  if (cell.agent !== undefined) parts.push(`agent=${cell.agent}`);
  if (cell.model !== undefined) parts.push(`model=${cell.model}`);
  if (cell.promptIndex !== undefined) parts.push(`prompt=#${cell.promptIndex}`);
  return `${evalName} [${parts.join(", ")}]`;
}

function cellId(evalName: string, cell: CellCoordinates | null): string {
  if (!cell) return evalName;
  return [
    evalName,
    cell.agent !== undefined ? `agent=${cell.agent}` : "",
    cell.model !== undefined ? `model=${cell.model}` : "",
    cell.promptIndex !== undefined ? `prompt=${cell.promptIndex}` : "",
  ]
    .filter(Boolean)
    .join("::");
}

function deferReasonOf(input: { evalConfig: EvalConfig; suite: SuiteConfig; prompt?: string; options: PlanOptions }): string | undefined {
  const { evalConfig, suite, prompt, options } = input;
  if (evalConfig.response === undefined) {
    if (evalConfig.server === undefined) return "no response to grade and no server to run the prompt against";
    if (!(evalConfig.server in suite.servers)) return `server "${evalConfig.server}" is unknown (not in servers:)`;
    if (prompt === undefined) return `no prompt to run against server "${evalConfig.server}"`;
    return options.judgeUnavailable ?? (options.liveUnavailable === undefined ? undefined : `${options.liveUnavailable} (server "${evalConfig.server}")`);
  }
  return options.judgeUnavailable;
}

function callsPerJudge(evalConfig: EvalConfig, candidate: Candidate | undefined): number {
  const rubric = evalConfig.rubric;
  if (rubric.kind === "freeform") return 1;
  if (rubric.kind === "tree") return treeDepth(rubric.tree);
  if (rubric.kind === "categories") return rubric.rubricSet.evaluationType === "holistic" ? 1 : rubric.rubricSet.categories.length;
  // Every pair, in both orders.
  if (rubric.kind === "pairwise") return rubric.comparison.items.length * 2;
  // For a fixed response the `when:` predicates are known now, so skipped
  // criteria cost nothing and are not counted.
  return rubric.criteria.filter((c) => !candidate || matchWhen(c.when, candidate.response).applies).length;
}

export function planSuite(options: PlanOptions): PlannedCell[] {
  const { suite, defaultModel, filter } = options;
  const cells: PlannedCell[] = [];
  for (const evalConfig of suite.evals) {
    if (filter && !filter.test(evalConfig.name)) continue;
    for (const cell of cellsOf(evalConfig)) {
      const models = evalConfig.judge.panel ?? [cell?.model ?? evalConfig.judge.model ?? defaultModel];
      const jury = evalConfig.judge.jury.size;
      const judges = models.flatMap((model) =>
        Array.from({ length: jury }, (_, i) => ({ model, juror: i + 1, label: jury > 1 ? `${model} #${i + 1}` : model })),
      );
      const prompt = cell?.prompt ?? evalConfig.prompt;
      const candidate: Candidate | undefined = evalConfig.response !== undefined ? { prompt, response: evalConfig.response } : undefined;
      const server = evalConfig.response === undefined && evalConfig.server !== undefined ? suite.servers[evalConfig.server] : undefined;
      const live =
        server && prompt !== undefined
          ? {
              serverName: evalConfig.server!,
              server,
              prompt,
              agent: { ...evalConfig.agent, model: cell?.agent ?? evalConfig.agent.model ?? options.defaultAgentModel ?? defaultModel },
            }
          : undefined;
      const deferReason = deferReasonOf({ evalConfig, suite, prompt, options });
      const perJudge = callsPerJudge(evalConfig, candidate);
      cells.push({
        id: cellId(evalConfig.name, cell),
        name: cellName(evalConfig.name, cell),
        eval: evalConfig,
        cell,
        candidate,
        ...(live ? { live } : {}),
        deferReason,
        judges,
        callsPerJudge: perJudge,
        judgeCalls: deferReason ? 0 : perJudge * judges.length,
      });
    }
  }
  return cells;
}
