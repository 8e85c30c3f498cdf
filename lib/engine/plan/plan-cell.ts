import type { EvalConfig, SuiteConfig } from "../../config/types";
import type { CellCoordinates } from "../results/report";
import type { Candidate, Reference } from "../grade/build-prompt";
import { matchWhen } from "../grade/match-when";
import { generationSettings, onlyAnthropic, resolveAgent } from "./cell-models";
import type { PlanOptions } from "./plan-options";
import { renderPromptTemplate } from "../../config/prompt-template";
import type { DatasetItem } from "../../config/dataset-schema";
import type { PlannedCell } from "../grade/planned-cell";
import { treeDepth } from "../../config/plan-size";

// One cell of a plan (an eval at matrix coordinates, for one dataset item):
// its candidate, judges (panel models × jurors), judge calls and deferral.
// plan-suite.ts walks the cells and calls this for each.

export type { PlanOptions };

export function cellName(evalName: string, cell: CellCoordinates | null): string {
  if (!cell) return evalName;
  const parts: string[] = [];
  if (cell.item !== undefined) parts.push(`item=${cell.item}`);
  if (cell.agent !== undefined) parts.push(`agent=${cell.agent}`);
  if (cell.model !== undefined) parts.push(`model=${cell.model}`);
  if (cell.promptIndex !== undefined) parts.push(`prompt=#${cell.promptIndex}`);
  return `${evalName} [${parts.join(", ")}]`;
}

function cellId(evalName: string, cell: CellCoordinates | null): string {
  if (!cell) return evalName;
  return [
    evalName,
    cell.item !== undefined ? `item=${cell.item}` : "",
    cell.agent !== undefined ? `agent=${cell.agent}` : "",
    cell.model !== undefined ? `model=${cell.model}` : "",
    cell.promptIndex !== undefined ? `prompt=${cell.promptIndex}` : "",
  ]
    .filter(Boolean)
    .join("::");
}

function deferReasonOf(input: {
  evalConfig: EvalConfig;
  suite: SuiteConfig;
  prompt?: string;
  response?: string;
  options: PlanOptions;
}): string | undefined {
  const { evalConfig, suite, prompt, response, options } = input;
  if (response === undefined) {
    // The CLI reads document files before planning; a caller that reads no files (the dashboard) lands here.
    const file = evalConfig.document?.file;
    if (file !== undefined)
      return `the document file "${file}" is not read here (the dashboard reads no files): write its text inline as document: { text: ... }, or grade it with rubric-studio eval`;
    if (evalConfig.generates)
      return prompt === undefined
        ? "no prompt for the agent model to answer"
        : (options.judgeUnavailable ??
            (options.liveUnavailable === undefined
              ? undefined
              : `${options.liveUnavailable} (a generated candidate)`));
    if (evalConfig.server === undefined)
      return "no response to grade and no server to run the prompt against";
    if (!(evalConfig.server in suite.servers))
      return `server "${evalConfig.server}" is unknown (not in servers:)`;
    if (prompt === undefined) return `no prompt to run against server "${evalConfig.server}"`;
    return (
      options.judgeUnavailable ??
      (options.liveUnavailable === undefined
        ? undefined
        : `${options.liveUnavailable} (server "${evalConfig.server}")`)
    );
  }
  return options.judgeUnavailable;
}

function callsPerJudge(evalConfig: EvalConfig, candidate: Candidate | undefined): number {
  const rubric = evalConfig.rubric;
  if (rubric.kind === "freeform") return 1;
  if (rubric.kind === "tree") return treeDepth(rubric.tree);
  if (rubric.kind === "categories")
    return rubric.rubricSet.evaluationType === "holistic" ? 1 : rubric.rubricSet.categories.length;
  // Every pair, in both orders.
  if (rubric.kind === "pairwise") return rubric.comparison.items.length * 2;
  // For a fixed response the `when:` predicates are known now, so skipped
  // criteria cost nothing and are not counted.
  return rubric.criteria.filter((c) => !candidate || matchWhen(c.when, candidate.response).applies)
    .length;
}

/**
 * What the judge of an item's generated or live candidate gets as a known-good
 * reference: its expected_output, every expected_outputs entry and its
 * context; nothing with `reference: false` or when the item has none.
 */
function referenceOf(item: DatasetItem, evalConfig: EvalConfig): Reference | undefined {
  if (evalConfig.reference === false) return undefined;
  const expectedOutputs = [
    ...(item.expectedOutput !== undefined ? [item.expectedOutput] : []),
    ...(item.expectedOutputs ?? []),
  ];
  const context = item.context ?? [];
  return expectedOutputs.length + context.length > 0 ? { expectedOutputs, context } : undefined;
}

/** What the cells of one eval share while they are planned one at a time. */
export interface EvalPlanning {
  evalConfig: EvalConfig;
  options: PlanOptions;
  /**
   * Cells that grade the same response (judge models, or items sharing an aliased text) test its
   * when: predicates once; bounded in count and in characters, so that a stream of distinct
   * responses (a dataset of long answers) does not grow it.
   */
  perJudgeByResponse: Map<string, number>;
  /** The characters of the responses `perJudgeByResponse` holds. */
  rememberedChars: number;
}

/** Responses whose when: predicates are remembered at most. */
const REMEMBERED_RESPONSES = 10_000;
/** Their characters at most: 10,000 answers of 6 KB each held 60 MB per walk of a plan. */
const REMEMBERED_CHARS = 2_000_000;

/** The planned cell of an eval at matrix coordinates `cell`, for dataset `item` (when it has one). */
export function planCell(
  planning: EvalPlanning,
  cell: CellCoordinates | null,
  item?: DatasetItem,
  /** The cell's place among its eval's cells (1-based). */
  cellIndex?: number,
): PlannedCell {
  const { evalConfig, options, perJudgeByResponse } = planning;
  const { suite, defaultModel } = options;
  const remember = (response: string) => {
    if (
      perJudgeByResponse.size >= REMEMBERED_RESPONSES ||
      planning.rememberedChars + response.length > REMEMBERED_CHARS
    ) {
      perJudgeByResponse.clear();
      planning.rememberedChars = 0;
    }
    const n = callsPerJudge(evalConfig, { response });
    perJudgeByResponse.set(response, n);
    planning.rememberedChars += response.length;
    return n;
  };
  const models = evalConfig.judge.panel ?? [cell?.model ?? evalConfig.judge.model ?? defaultModel];
  const jury = evalConfig.judge.jury.size;
  const resolved = models.map((model) =>
    options.resolveModel ? options.resolveModel(model) : onlyAnthropic(model, suite),
  );
  const judges = models.flatMap((model, m) =>
    Array.from({ length: jury }, (_, i) => ({
      model,
      juror: i + 1,
      label: jury > 1 ? `${model} #${i + 1}` : model,
      ...(options.resolveModel ? { provider: resolved[m]!.provider } : {}),
    })),
  );
  const judgeUnavailable =
    options.judgeUnavailable ?? resolved.find((r) => r?.unavailable !== undefined)?.unavailable;
  // A dataset item fills the prompt template (or is the prompt), and without a server its expected output is the response.
  const template = cell?.prompt ?? evalConfig.prompt;
  const prompt = item ? renderPromptTemplate(template, item) : template;
  const generated = evalConfig.generates === true;
  const id = cellId(evalConfig.name, cell);
  const suiteResponse = item
    ? evalConfig.server === undefined && !generated
      ? item.expectedOutput
      : undefined
    : evalConfig.response;
  const response =
    suiteResponse === undefined ? undefined : (options.storedResponses?.get(id) ?? suiteResponse);
  const candidate: Candidate | undefined =
    response !== undefined ? { prompt, response } : undefined;
  const server =
    response === undefined && evalConfig.server !== undefined
      ? suite.servers[evalConfig.server]
      : undefined;
  const agentModel =
    cell?.agent ?? evalConfig.agent.model ?? options.defaultAgentModel ?? defaultModel;
  const runs =
    (server !== undefined || (generated && response === undefined)) && prompt !== undefined;
  const agent = runs ? resolveAgent(agentModel, options) : undefined;
  const agentSettings = {
    ...evalConfig.agent,
    model: agentModel,
    ...(options.resolveModel && agent?.provider !== undefined ? { provider: agent.provider } : {}),
  };
  // A generated candidate is a live run of one turn with no server: the model answers, with no tools.
  const live = !runs
    ? undefined
    : server
      ? { serverName: evalConfig.server!, server, prompt, agent: agentSettings }
      : {
          prompt,
          agent: generationSettings({ settings: agentSettings, model: agentModel, suite }),
        };
  const deferReason = deferReasonOf({
    evalConfig,
    suite,
    prompt,
    ...(response !== undefined ? { response } : {}),
    options: { ...options, judgeUnavailable: judgeUnavailable ?? agent?.unavailable },
  });
  const perJudge =
    candidate === undefined
      ? callsPerJudge(evalConfig, candidate)
      : (perJudgeByResponse.get(candidate.response) ?? remember(candidate.response));
  const reference = live && item ? referenceOf(item, evalConfig) : undefined;
  return {
    id,
    name: cellName(evalConfig.name, cell),
    eval: evalConfig,
    cell,
    ...(cell !== null && cellIndex !== undefined ? { cellIndex } : {}),
    candidate,
    ...(live ? { live } : {}),
    ...(reference ? { reference } : {}),
    deferReason,
    judges,
    callsPerJudge: perJudge,
    judgeCalls: deferReason ? 0 : perJudge * judges.length,
  };
}

/** Upper bound of the judge calls per judge of an eval's cell: every criterion, whatever its when:. */
export function callsPerJudgeAtMost(evalConfig: EvalConfig): number {
  return callsPerJudge(evalConfig, undefined);
}
