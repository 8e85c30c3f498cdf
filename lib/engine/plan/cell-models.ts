import type { SuiteConfig } from "../../config/types";
import { resolveProvider } from "./resolve-provider";
import type { PlanOptions } from "./plan-options";

// The models of a cell: which provider serves a judge or the live agent, why
// it cannot run now, and what a generated candidate's one call is sent.
// plan-cell.ts asks this for each cell it plans.

/** The model's provider by the suite's providers: block, whatever keys are set. */
function resolveAsIfKeyed(model: string, suite: SuiteConfig) {
  return resolveProvider(model, {
    ...(suite.providers ? { declared: suite.providers } : {}),
    hasKey: () => true,
  });
}

/**
 * For callers that resolve no providers (the dashboard's Check anchors and
 * Run calibration): their judge speaks the Messages API only, so a model of another provider defers
 * with the reason instead of failing as an unknown Anthropic model.
 */
export function onlyAnthropic(
  model: string,
  suite: SuiteConfig,
  role: "judge" | "agent" = "judge",
): { provider: string; unavailable?: string } | undefined {
  const resolved = resolveAsIfKeyed(model, suite);
  if (resolved.type === "anthropic" && !resolved.declared) return undefined;
  const which =
    role === "judge"
      ? "is not resolved here (runs resolve it: rubric-studio eval, review, calibrate, and queued or dashboard runs)"
      : "only rubric-studio eval runs agents on yet";
  return {
    provider: resolved.provider,
    unavailable: `${role} model ${model} is served by provider "${resolved.provider}", which ${which}`,
  };
}

/** Whether a model is served through the Messages API (Anthropic's, or a provider declared of its type). */
function speaksMessagesApi(model: string, suite: SuiteConfig): boolean {
  return resolveAsIfKeyed(model, suite).type === "anthropic";
}

/**
 * A generated candidate's one call: one turn, and the temperature that is sent. The Messages API
 * version the Anthropic SDK speaks refuses temperature, so a model of that type is sent none, and
 * none is planned (explain says what is sent); others get the eval's, or 0.
 */
export function generationSettings<T extends { temperature?: number }>(input: {
  settings: T;
  model: string;
  suite: SuiteConfig;
}): Omit<T, "temperature"> & { maxTurns: number; temperature?: number } {
  const { temperature, ...rest } = input.settings;
  return {
    ...rest,
    maxTurns: 1,
    ...(speaksMessagesApi(input.model, input.suite) ? {} : { temperature: temperature ?? 0 }),
  };
}

/** Why the live agent's model cannot run now (its provider's key is not set, or this caller runs Claude agents only), and its provider when resolved. */
export function resolveAgent(
  model: string,
  options: PlanOptions,
): { provider?: string; unavailable?: string } {
  if (!options.resolveModel)
    return options.agentsReplayed ? {} : (onlyAnthropic(model, options.suite, "agent") ?? {});
  const resolved = options.resolveModel(model);
  if (resolved.unavailable === undefined || options.agentsReplayed)
    return { provider: resolved.provider };
  const unavailable =
    resolved.apiKeyEnv !== undefined
      ? `no key for agent model ${model}: set ${resolved.apiKeyEnv} to run it`
      : `agent model ${model}: ${resolved.unavailable}`;
  return { provider: resolved.provider, unavailable };
}
