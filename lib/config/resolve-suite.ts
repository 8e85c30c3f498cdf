import type { z } from "zod";
import type { SuiteSchema, JudgeInput } from "./schema";
import type { CriterionInput, ScaleInput, TreeNodeInput } from "./rubric-schema";
import type { AgentInput } from "./live-schema";
import { PRESETS } from "./presets";
import { resolveCategoryRubric, resolveDocument } from "./resolve-categories";
import { describeCompareInput, withComparison } from "./resolve-compare";
import { datasetFormat, resolveDatasetItems } from "./dataset-schema";
import type { YamlLocator } from "./yaml-locator";
import type {
  AgentConfig,
  Criterion,
  EvalConfig,
  JudgeConfig,
  Rubric,
  RubricSource,
  Scale,
  ServerConfig,
  SuiteConfig,
  TreeNode,
} from "./types";

// Expands refs and presets and applies defaults. Runs only on a suite that
// checkSuite passed, so every ref and preset here exists.

type Suite = z.output<typeof SuiteSchema>;
type StructuredRubric = Exclude<NonNullable<Suite["rubrics"]>[string], string>;

export const DEFAULT_THRESHOLD = 0.7;
export const DEFAULT_JUDGE = { maxTokens: 1024, consensus: 0.5 } as const;
export const DEFAULT_AGENT = {
  maxTurns: 10,
  timeoutSeconds: 300,
  maxTokens: 2048,
  maxResultChars: 2000,
} as const;
export const DEFAULT_SERVER_TIMEOUTS = { startTimeoutSeconds: 30, toolTimeoutSeconds: 60 } as const;

function toScale(scale: ScaleInput | undefined): Scale {
  if (scale === undefined || scale === "unit") return { kind: "unit" };
  if (scale === "boolean" || scale === "letter") return { kind: scale };
  return { kind: "likert", min: scale.likert.min, max: scale.likert.max };
}

function toCriterion(input: CriterionInput): Criterion {
  return {
    name: input.name,
    description: input.description,
    weight: input.weight ?? 1,
    required: input.required ?? false,
    guard: input.guard ?? false,
    threshold: input.threshold,
    when: input.when,
    examples: input.examples ?? [],
  };
}

function toTree(node: TreeNodeInput): TreeNode {
  return "ask" in node
    ? { ask: node.ask, yes: toTree(node.yes), no: toTree(node.no) }
    : { score: node.score, reason: node.reason };
}

interface Overrides {
  threshold?: number;
  strict?: boolean;
}

function resolveStructured(
  rubric: StructuredRubric,
  source: RubricSource,
  overrides: Overrides,
  evalThreshold?: number,
  evalName?: string,
): Rubric {
  const preset = rubric.preset ? PRESETS[rubric.preset as keyof typeof PRESETS] : undefined;
  const threshold =
    overrides.threshold ??
    rubric.threshold ??
    evalThreshold ??
    preset?.threshold ??
    DEFAULT_THRESHOLD;
  const common = {
    threshold,
    strict: overrides.strict ?? rubric.strict ?? false,
    scale: toScale(rubric.scale),
    source,
  };
  if (rubric.tree) return { ...common, kind: "tree", tree: toTree(rubric.tree) };
  if (rubric.categories)
    return {
      ...common,
      kind: "categories",
      rubricSet: resolveCategoryRubric({ rubric, defaultId: source.name ?? evalName ?? "review" }),
    };
  const criteria = [...(preset?.criteria ?? []), ...(rubric.criteria ?? [])].map(toCriterion);
  return {
    ...common,
    kind: "criteria",
    criteria,
    requireEvidence: rubric.require_evidence ?? false,
    aggregation:
      rubric.aggregation === "min" || rubric.aggregation === "worst" ? "min" : "weighted_average",
  };
}

function resolveRubric(suite: Suite, evalInput: Suite["evals"][number]): Rubric {
  const rubric = evalInput.rubric;
  if (typeof rubric === "string") {
    return {
      kind: "freeform",
      text: rubric,
      threshold: evalInput.threshold ?? DEFAULT_THRESHOLD,
      strict: false,
      scale: { kind: "unit" },
      source: { type: "inline" },
    };
  }
  if (rubric.ref !== undefined) {
    const named = suite.rubrics![rubric.ref]!;
    const overrides = { threshold: rubric.threshold ?? evalInput.threshold, strict: rubric.strict };
    if (typeof named === "string") {
      return {
        kind: "freeform",
        text: named,
        threshold: overrides.threshold ?? DEFAULT_THRESHOLD,
        strict: overrides.strict ?? false,
        scale: { kind: "unit" },
        source: { type: "ref", name: rubric.ref },
      };
    }
    return resolveStructured(named, { type: "ref", name: rubric.ref }, overrides);
  }
  const source: RubricSource = rubric.preset
    ? { type: "preset", name: rubric.preset }
    : { type: "inline" };
  return resolveStructured(rubric, source, {}, evalInput.threshold, evalInput.name);
}

function resolveJudge(
  suiteJudge: JudgeInput | undefined,
  evalJudge: JudgeInput | undefined,
): JudgeConfig {
  const merged = { ...suiteJudge, ...evalJudge };
  // An eval that names a model drops a suite-level panel, and the reverse.
  if (evalJudge?.model) delete merged.panel;
  if (evalJudge?.panel) delete merged.model;
  const jury = evalJudge?.jury ?? suiteJudge?.jury;
  return {
    model: merged.model,
    maxTokens: merged.max_tokens ?? DEFAULT_JUDGE.maxTokens,
    jury: { size: jury?.size ?? 1, consensus: jury?.consensus ?? DEFAULT_JUDGE.consensus },
    panel: merged.panel,
    aggregate: merged.aggregate ?? "mean",
    tieBreak: merged.tie_break ?? "fail",
  };
}

function resolveAgent(
  suiteAgent: AgentInput | undefined,
  evalAgent: AgentInput | undefined,
): AgentConfig {
  const merged = { ...suiteAgent, ...evalAgent };
  return {
    model: merged.model,
    maxTurns: merged.max_turns ?? DEFAULT_AGENT.maxTurns,
    timeoutSeconds: merged.timeout_seconds ?? DEFAULT_AGENT.timeoutSeconds,
    maxTokens: merged.max_tokens ?? DEFAULT_AGENT.maxTokens,
    ...(merged.system !== undefined ? { system: merged.system } : {}),
    maxResultChars: merged.max_result_chars ?? DEFAULT_AGENT.maxResultChars,
    ...(merged.temperature !== undefined ? { temperature: merged.temperature } : {}),
  };
}

/**
 * An eval whose candidate a model generates: it has nothing to grade of its
 * own and no server, and names its agent model itself (a suite-level agent
 * model alone keeps today's meaning: such an eval defers, a dataset eval grades
 * each item's expected_output).
 */
export function generatesCandidate(evalInput: {
  server?: string;
  response?: string;
  document?: unknown;
  compare?: unknown;
  agent?: { model?: string };
  matrix?: { agents?: string[] };
}): boolean {
  return (
    evalInput.server === undefined &&
    evalInput.response === undefined &&
    evalInput.document === undefined &&
    evalInput.compare === undefined &&
    (evalInput.agent?.model !== undefined || evalInput.matrix?.agents !== undefined)
  );
}

export function resolveServer(server: NonNullable<Suite["servers"]>[string]): ServerConfig {
  const timeouts = {
    startTimeoutSeconds:
      server.start_timeout_seconds ?? DEFAULT_SERVER_TIMEOUTS.startTimeoutSeconds,
    toolTimeoutSeconds: server.tool_timeout_seconds ?? DEFAULT_SERVER_TIMEOUTS.toolTimeoutSeconds,
  };
  if ("url" in server)
    return { kind: "http", url: server.url, headers: server.headers ?? {}, ...timeouts };
  return {
    kind: "stdio",
    command: server.command,
    args: server.args ?? [],
    env: server.env ?? {},
    cwd: server.cwd,
    ...timeouts,
  };
}

export function resolveSuite(input: {
  suite: Suite;
  locator: YamlLocator;
  file: string;
}): SuiteConfig {
  const { suite, locator, file } = input;
  const servers = Object.fromEntries(
    Object.entries(suite.servers ?? {}).map(([name, server]) => [name, resolveServer(server)]),
  );
  const evals: EvalConfig[] = suite.evals.map((evalInput, i) => ({
    name: evalInput.name,
    description: evalInput.description,
    server: evalInput.server,
    prompt: evalInput.prompt,
    // An inline document is the candidate; a document file is read by the caller (lib/config does no I/O).
    // A pairwise eval's "candidate" is the comparison itself; the outputs are in its rubric.
    response:
      evalInput.response ??
      (typeof evalInput.document === "string" ? evalInput.document : evalInput.document?.text) ??
      (evalInput.compare ? describeCompareInput(evalInput.compare) : undefined),
    ...(evalInput.document !== undefined ? { document: resolveDocument(evalInput.document) } : {}),
    ...(evalInput.dataset !== undefined ? { dataset: evalInput.dataset } : {}),
    ...(evalInput.candidates !== undefined
      ? { candidates: { dataset: evalInput.candidates.dataset } }
      : {}),
    ...(evalInput.reference === false ? { reference: false as const } : {}),
    rubric: withComparison(resolveRubric(suite, evalInput), evalInput.compare),
    judge: resolveJudge(suite.judge, evalInput.judge),
    agent: resolveAgent(suite.agent, evalInput.agent),
    ...(generatesCandidate(evalInput) ? { generates: true as const } : {}),
    matrix: evalInput.matrix,
    location: { file, ...locator.locate(["evals", i]) },
  }));
  const datasets = Object.fromEntries(
    Object.entries(suite.datasets ?? {}).map(([name, d]) => [
      name,
      {
        name,
        ...(d.file !== undefined
          ? {
              file: d.file,
              format: datasetFormat(d),
              ...(d.columns ? { columns: d.columns } : {}),
              unread: true,
            }
          : {}),
        items: resolveDatasetItems(d.items ?? []),
      },
    ]),
  );
  const providers = Object.fromEntries(
    Object.entries(suite.providers ?? {}).map(([name, p]) => [
      name,
      {
        type: p.type,
        ...(p.base_url !== undefined ? { baseUrl: p.base_url } : {}),
        ...(p.api_key_env !== undefined ? { apiKeyEnv: p.api_key_env } : {}),
      },
    ]),
  );
  return {
    file,
    description: suite.description,
    servers,
    evals,
    ...(suite.datasets ? { datasets } : {}),
    ...(suite.providers ? { providers } : {}),
  };
}
