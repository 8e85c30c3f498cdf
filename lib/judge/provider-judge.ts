import { batchPrice, costOf } from "../engine/cost/cost";
import type {
  JudgeCallContext,
  JudgeOutcome,
  JudgeRequest,
  TypedJudgePort,
  VerdictKind,
} from "../engine/ports/judge-port";
import { goesThroughBatches, type ResolvedModel } from "../engine/plan/resolve-provider";
import type { Verdict } from "../engine/ports/verdict";
import { PROVIDER_ADAPTERS, type AdapterOptions, type AgentSender } from "./provider-registry";
import { createBatchJudge } from "./batch-judge";
import type { BatchRoundsOptions } from "./batch-rounds";
import { createMessageBatchesClient } from "./message-batches-client";
import { priceOfResolved } from "./provider-resolution";

// The judge port for a suite whose models may come from several providers (a
// mixed-vendor panel, a matrix over vendors): each request goes to the adapter
// of the provider its model resolves to, with the prefix taken off; the call
// record keeps the model as written, names the provider, and is priced from
// that provider's table (a declared provider is unpriced).

export interface ProviderJudgeOptions {
  resolve: (model: string) => ResolvedModel;
  /** Key values by environment variable name, as lib/env read them. */
  keys: Readonly<Record<string, string>>;
  /** The built-in providers' endpoints from the environment (ANTHROPIC_BASE_URL, OPENAI_BASE_URL). */
  baseUrls: { anthropic?: string; openai?: string };
  timeoutMs: number;
  /**
   * Send the Anthropic API's requests through Message Batches (`--batch`), in
   * rounds, at half the price. Other providers (and a provider declared under
   * providers:, which may not serve batches) are called directly.
   */
  batch?: Omit<BatchRoundsOptions, "client">;
}

/** How to reach a resolved model's provider: its key and endpoint from the environment or its providers: entry. */
function adapterOptionsOf(resolved: ResolvedModel, options: ProviderJudgeOptions): AdapterOptions {
  const apiKey =
    resolved.apiKeyEnv !== undefined && Object.hasOwn(options.keys, resolved.apiKeyEnv)
      ? options.keys[resolved.apiKeyEnv]
      : undefined;
  const baseURL =
    resolved.baseUrl ??
    (resolved.declared ? undefined : options.baseUrls[resolved.provider as "anthropic" | "openai"]);
  return {
    ...(apiKey !== undefined ? { apiKey } : {}),
    ...(baseURL !== undefined ? { baseURL } : {}),
    timeoutMs: options.timeoutMs,
    declared: resolved.declared,
  };
}

/** One client per provider, made on first use. */
function perProvider<T>(
  options: ProviderJudgeOptions,
  create: (resolved: ResolvedModel, adapterOptions: AdapterOptions) => T,
): (resolved: ResolvedModel) => T {
  const made = new Map<string, T>();
  return (resolved) => {
    let value = made.get(resolved.provider);
    if (value === undefined) {
      value = create(resolved, adapterOptionsOf(resolved, options));
      made.set(resolved.provider, value);
    }
    return value;
  };
}

/**
 * Where a live agent's model runs, for lib/live's endpointFor: the sender of
 * the provider it resolves to and the model id without its prefix. The agent
 * shares the judge's retry policy and keys.
 */
export function createProviderAgents(
  options: ProviderJudgeOptions,
): (model: string) => AgentSender & { model: string } {
  const senderFor = perProvider(options, (resolved, o) =>
    PROVIDER_ADAPTERS[resolved.type].createAgentSender(o),
  );
  return (model) => {
    const resolved = options.resolve(model);
    return { ...senderFor(resolved), model: resolved.model };
  };
}

export function createProviderJudge(options: ProviderJudgeOptions): TypedJudgePort {
  const adapterFor = perProvider(options, (resolved, o) =>
    // With --batch, the Anthropic API's own models go through Message Batches; a declared provider is called directly.
    options.batch && goesThroughBatches(resolved)
      ? createBatchJudge({
          ...options.batch,
          client: createMessageBatchesClient({
            apiKey: o.apiKey ?? "unset",
            ...(o.baseURL !== undefined ? { baseURL: o.baseURL } : {}),
            timeoutMs: o.timeoutMs,
          }),
        })
      : PROVIDER_ADAPTERS[resolved.type].createJudge(o),
  );

  async function grade(
    request: JudgeRequest<VerdictKind>,
    context: JudgeCallContext,
  ): Promise<JudgeOutcome<Verdict>> {
    const resolved = options.resolve(request.model);
    const outcome = await adapterFor(resolved).grade(
      { ...request, model: resolved.model },
      context,
    );
    const price = priceOfResolved(resolved);
    const billed = price && outcome.call.batched ? batchPrice(price) : price;
    const call = {
      ...outcome.call,
      model: request.model,
      provider: resolved.provider,
      costUsd: billed ? costOf(billed, outcome.call.usage) : null,
    };
    return { ...outcome, call };
  }

  // Warm-first needs the adapter's cache prefixes; each provider keeps its own
  // cache, so a prefix is named per provider.
  function cachePrefixes(request: JudgeRequest<VerdictKind>): readonly string[] {
    const resolved = options.resolve(request.model);
    const adapter = adapterFor(resolved);
    return adapter.cachePrefixes
      ? adapter
          .cachePrefixes({ ...request, model: resolved.model })
          .map((key) => `${resolved.provider}\u0000${key}`)
      : [];
  }

  return { grade, cachePrefixes } as TypedJudgePort;
}
