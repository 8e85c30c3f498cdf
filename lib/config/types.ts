import type { ProviderConfig } from "./provider-schema";
import type { DocumentConfig, RubricSetConfig } from "./category-types";
import type { PairwiseConfig } from "./pairwise-types";
import type { DatasetConfig } from "./dataset-schema";

// The resolved, typed form of a suite: refs and presets expanded, defaults
// applied. This is what the engine consumes; it never sees raw YAML.

export interface SourceLocation {
  file: string;
  line: number; // 1-based
  column: number; // 1-based
}

export interface ConfigIssue extends SourceLocation {
  path: (string | number)[];
  message: string;
  severity: "error" | "warning";
}

export type Scale =
  | { kind: "unit" }
  | { kind: "boolean" }
  | { kind: "letter" }
  | { kind: "likert"; min: number; max: number };

export interface Anchor {
  response: string;
  score: number;
}

export interface WhenPredicate {
  contains?: string;
  regex?: string;
}

export interface Criterion {
  name: string;
  description: string;
  weight: number;
  required: boolean;
  guard: boolean;
  threshold?: number;
  when?: WhenPredicate;
  examples: Anchor[];
}

export type TreeNode =
  { ask: string; yes: TreeNode; no: TreeNode } | { score: number; reason?: string };

export interface RubricSource {
  type: "inline" | "ref" | "preset";
  name?: string;
}

interface RubricCommon {
  threshold: number;
  strict: boolean;
  scale: Scale;
  source: RubricSource;
}

export type Rubric =
  | (RubricCommon & { kind: "freeform"; text: string })
  | (RubricCommon & {
      kind: "criteria";
      criteria: Criterion[];
      requireEvidence: boolean;
      aggregation: "weighted_average" | "min";
    })
  | (RubricCommon & { kind: "tree"; tree: TreeNode })
  | (RubricCommon & { kind: "categories"; rubricSet: RubricSetConfig })
  | (RubricCommon & { kind: "pairwise"; comparison: PairwiseConfig });

export interface JudgeConfig {
  /** Undefined means "resolve from the environment" (the caller passes a default). */
  model?: string;
  maxTokens: number;
  jury: { size: number; consensus: number };
  panel?: string[];
  /**
   * mean / median / majority for scores; majority / conservative / optimistic / unanimous for a
   * category rubric's votes.
   */
  aggregate: "mean" | "median" | "majority" | "conservative" | "optimistic" | "unanimous";
  tieBreak: "pass" | "fail";
}

export interface Matrix {
  models?: string[];
  prompts?: string[];
  /** Agent models of a live run. */
  agents?: string[];
}

interface ServerTimeouts {
  startTimeoutSeconds: number;
  toolTimeoutSeconds: number;
}

export type ServerConfig =
  | ({
      kind: "stdio";
      command: string;
      args: string[];
      env: Record<string, string>;
      cwd?: string;
    } & ServerTimeouts)
  | ({ kind: "http"; url: string; headers: Record<string, string> } & ServerTimeouts);

/** The live agent of an eval without a response. */
export interface AgentConfig {
  /** Undefined means "the default" (the caller passes one). */
  model?: string;
  maxTurns: number;
  timeoutSeconds: number;
  maxTokens: number;
  system?: string;
  maxResultChars: number;
  /** A generated candidate's sampling temperature, as sent (the eval's, or 0; none for a model of the Messages API, which refuses it). */
  temperature?: number;
}

export interface EvalConfig {
  name: string;
  description?: string;
  server?: string;
  prompt?: string;
  response?: string;
  rubric: Rubric;
  judge: JudgeConfig;
  /** Used only when the eval has no response (a live run, or a generated candidate). */
  agent: AgentConfig;
  /**
   * The candidate is generated: no response, no server, and an agent model
   * named on the eval (`agent: { model }` or `matrix.agents`). The model
   * answers the prompt (or each dataset item) with no tools.
   */
  generates?: true;
  matrix?: Matrix;
  /** The document a review grades; its text is `response` once read. */
  document?: DocumentConfig;
  /** A dataset (under datasets:) whose annotations label this eval's rubric, for calibrate. */
  dataset?: string;
  /**
   * A dataset (under datasets:) whose items are this eval's candidates, one
   * result each. Planning uses it only while `response` is unset: a fixed
   * response (as calibrate's probes set) is the candidate itself.
   */
  candidates?: { dataset: string };
  /** `reference: false`: a generated or live item's candidate is graded without the item's reference answers. */
  reference?: false;
  location: SourceLocation;
}

export interface SuiteConfig {
  file: string;
  description?: string;
  servers: Record<string, ServerConfig>;
  evals: EvalConfig[];
  /** Reference datasets; a file dataset's items are read by the caller. */
  datasets?: Record<string, DatasetConfig>;
  /** Declared model providers (providers:), by the name model prefixes use. */
  providers?: Record<string, ProviderConfig>;
}

export type LoadResult =
  { ok: true; value: SuiteConfig; warnings: ConfigIssue[] } | { ok: false; issues: ConfigIssue[] };
