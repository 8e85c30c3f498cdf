import type { SuiteConfig } from "../config/types";
import type { ModelPrice } from "../engine/cost";
import type { TypedJudgePort } from "../engine/judge-port";
import { BUILTIN_KEY_ENV, resolveProvider, type ResolvedModel } from "../engine/resolve-provider";
import type { Settings } from "../env/read-env";
import { readProviderKeys } from "../env/read-provider-keys";
import { cacheMinimumOf, DEFAULT_CACHE_MINIMUM_TOKENS } from "../judge/cache-minimums";
import { createProviderAgents, createProviderJudge, priceOfResolved } from "../judge/provider-judge";
import type { AgentEndpoint } from "../live/create-live-runner";

// The providers of one suite on this machine (issue 11): which provider each
// model resolves to given the keys that are set, what it costs, and the judge
// that sends each request to its provider. Keys come from lib/env only.

export interface ProviderSetup {
  resolve(model: string): ResolvedModel;
  priceOf(model: string): ModelPrice | undefined;
  /** The smallest prefix the model's prompt cache keeps, for the cost projection; undefined for a provider the judge does not lay out for the cache. */
  cacheMinimumOf(model: string): number | undefined;
  createJudge(input: { timeoutMs: number }): TypedJudgePort;
  /** Where each live agent model runs (lib/live's endpointFor), with the judge's keys and retry policy. */
  agentEndpoints(input: { timeoutMs: number }): (model: string) => AgentEndpoint;
}

/** Why --max-cost cannot be honoured for these judge models (some have no known price), or undefined when it can. */
export function unpricedRefusal(input: { models: readonly string[]; priceOf: (model: string) => ModelPrice | undefined }): string | undefined {
  const unpriced = [...new Set(input.models)].filter((model) => input.priceOf(model) === undefined).sort();
  if (unpriced.length === 0) return undefined;
  return `--max-cost cannot bound the spend of ${unpriced.join(", ")}: no known price (their calls would count as $0). Pass --allow-unpriced to run anyway, or drop --max-cost`;
}

export function createProviderSetup(input: { suite: SuiteConfig; settings: Settings; env: Record<string, string | undefined> }): ProviderSetup {
  const { suite, settings, env } = input;
  const declaredEnv = Object.values(suite.providers ?? {}).flatMap((p) => (p.apiKeyEnv === undefined ? [] : [p.apiKeyEnv]));
  const keys: Record<string, string> = {
    ...readProviderKeys(declaredEnv, env),
    ...(settings.anthropicApiKey !== undefined ? { [BUILTIN_KEY_ENV.anthropic!]: settings.anthropicApiKey } : {}),
    ...(settings.openaiApiKey !== undefined ? { [BUILTIN_KEY_ENV.openai!]: settings.openaiApiKey } : {}),
  };
  const context = { ...(suite.providers ? { declared: suite.providers } : {}), hasKey: (name: string) => Object.hasOwn(keys, name) };
  const resolve = (model: string) => resolveProvider(model, context);
  const baseUrls = { ...(settings.anthropicBaseUrl ? { anthropic: settings.anthropicBaseUrl } : {}), ...(settings.openaiBaseUrl ? { openai: settings.openaiBaseUrl } : {}) };
  return {
    resolve,
    priceOf: (model) => priceOfResolved(resolve(model)),
    cacheMinimumOf: (model) => {
      const resolved = resolve(model);
      // The Messages API's minimums, as the request layout uses them (an unlisted model gets the default).
      return resolved.type === "anthropic" && !resolved.declared ? (cacheMinimumOf(resolved.model) ?? DEFAULT_CACHE_MINIMUM_TOKENS) : undefined;
    },
    createJudge: ({ timeoutMs }) => createProviderJudge({ resolve, keys, baseUrls, timeoutMs }),
    agentEndpoints: ({ timeoutMs }) => createProviderAgents({ resolve, keys, baseUrls, timeoutMs }),
  };
}
