import type { SuiteConfig } from "../config/types";
import type { ModelPrice } from "../engine/cost/cost";
import type { TypedJudgePort } from "../engine/ports/judge-port";
import { BUILTIN_KEY_ENV, type ResolvedModel } from "../engine/plan/resolve-provider";
import type { Settings } from "../env/read-env";
import { readProviderKeys } from "../env/read-provider-keys";
import { secretValues } from "../env/secret-values";
import {
  createProviderAgents,
  createProviderJudge,
  type ProviderJudgeOptions,
} from "./provider-judge";
import { providerResolution } from "./provider-resolution";
import type { AgentEndpoint } from "../live/create-live-runner";

// The providers of one suite on this machine (issue 11): which provider each
// model resolves to given the keys that are set, what it costs, and the judge
// that sends each request to its provider. Keys come from lib/env only.

export interface ProviderSetup {
  resolve(model: string): ResolvedModel;
  priceOf(model: string): ModelPrice | undefined;
  /**
   * The smallest prefix the model's prompt cache keeps, for the cost projection; undefined for a
   * provider the judge does not lay out for the cache.
   */
  cacheMinimumOf(model: string): number | undefined;
  /** With `batch`, the Anthropic API's requests go through Message Batches (`--batch`). */
  createJudge(input: { timeoutMs: number; batch?: ProviderJudgeOptions["batch"] }): TypedJudgePort;
  /** Where each live agent model runs (lib/live's endpointFor), with the judge's keys and retry policy. */
  agentEndpoints(input: { timeoutMs: number }): (model: string) => AgentEndpoint;
  /** Every secret value this setup holds and may send (every provider's key, the settings' own): redacted by value from results (the engine's createRedactor). */
  secrets: readonly string[];
}

/** Why --max-cost cannot be honoured for these judge models (some have no known price), or undefined when it can. */
export function unpricedRefusal(input: {
  models: readonly string[];
  priceOf: (model: string) => ModelPrice | undefined;
}): string | undefined {
  const unpriced = [...new Set(input.models)]
    .filter((model) => input.priceOf(model) === undefined)
    .sort();
  if (unpriced.length === 0) return undefined;
  return `--max-cost cannot bound the spend of ${unpriced.join(", ")}: no known price (their calls would count as $0). Pass --allow-unpriced to run anyway, or drop --max-cost`;
}

export function createProviderSetup(input: {
  suite: SuiteConfig;
  settings: Settings;
  env: Record<string, string | undefined>;
}): ProviderSetup {
  const { suite, settings, env } = input;
  const declaredEnv = Object.values(suite.providers ?? {}).flatMap((p) =>
    p.apiKeyEnv === undefined ? [] : [p.apiKeyEnv],
  );
  const keys: Record<string, string> = {
    ...readProviderKeys(declaredEnv, env),
    ...(settings.anthropicApiKey !== undefined
      ? { [BUILTIN_KEY_ENV.anthropic!]: settings.anthropicApiKey }
      : {}),
    ...(settings.openaiApiKey !== undefined
      ? { [BUILTIN_KEY_ENV.openai!]: settings.openaiApiKey }
      : {}),
  };
  const resolution = providerResolution({
    ...(suite.providers ? { declared: suite.providers } : {}),
    hasKey: (name: string) => Object.hasOwn(keys, name),
  });
  const resolve = resolution.resolve;
  const baseUrls = {
    ...(settings.anthropicBaseUrl ? { anthropic: settings.anthropicBaseUrl } : {}),
    ...(settings.openaiBaseUrl ? { openai: settings.openaiBaseUrl } : {}),
  };
  return {
    resolve,
    priceOf: resolution.priceOf,
    cacheMinimumOf: resolution.cacheMinimumOf,
    createJudge: ({ timeoutMs, batch }) =>
      createProviderJudge({ ...(batch ? { batch } : {}), resolve, keys, baseUrls, timeoutMs }),
    agentEndpoints: ({ timeoutMs }) => createProviderAgents({ resolve, keys, baseUrls, timeoutMs }),
    secrets: [...secretValues(settings), ...Object.values(keys)],
  };
}
