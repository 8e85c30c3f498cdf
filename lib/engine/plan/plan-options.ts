import type { SuiteConfig } from "../../config/types";

// What a caller tells the planner: the suite, the default models, how models
// resolve to providers, and why judging or live runs cannot happen here.

export interface PlanOptions {
  suite: SuiteConfig;
  /** The judge model when neither the eval nor the suite names one. */
  defaultModel: string;
  /** Why no eval can be graded at all (e.g. no API key), or undefined when judging is possible. */
  judgeUnavailable?: string;
  /** Which provider serves a judge or agent model, and why it cannot now (its key is not set); a cell defers on its first unavailable model. */
  resolveModel?: (model: string) => { provider: string; unavailable?: string; apiKeyEnv?: string };
  /** The live agent's model when neither the matrix, the eval nor the suite names one. Default: defaultModel. */
  defaultAgentModel?: string;
  /** Why live runs cannot happen in this context (e.g. no live port), or undefined when they can. */
  liveUnavailable?: string;
  /** Only evals whose name matches run. */
  filter?: RegExp;
  /** The candidates are stored ones (`regrade`): agent models are never called, so their keys are not needed. */
  agentsReplayed?: boolean;
  /**
   * `regrade`: the stored response of each fixed cell by its id, graded instead
   * of the suite's text (a response edited since the run is not the candidate
   * that run graded).
   */
  storedResponses?: ReadonlyMap<string, string>;
}
