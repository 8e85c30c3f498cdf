import type { ProviderType } from "../config/provider-schema";
import type { ModelPrice } from "../engine/cost";
import type { JudgeCallContext, JudgeRequest, TypedJudgePort, VerdictKind } from "../engine/judge-port";
import { createAnthropicJudge } from "./anthropic-judge";
import type { OpenAIJudgeOptions } from "./openai-judge";
import { openaiPriceOf } from "./openai-pricing";
import { priceOf as anthropicPriceOf } from "./pricing";

// One adapter per provider type behind the judge port (DESIGN.md house rule 5),
// each with its own price table. test/judge/provider-registry.test.ts walks it.
// The openai SDK is loaded by the first call to an OpenAI-compatible model, so
// that a run without one (most runs) never pays for loading it.

export interface AdapterOptions {
  apiKey?: string;
  /** Undefined: the vendor's public API. */
  baseURL?: string;
  timeoutMs: number;
  /** Declared under providers: (a local server or a proxy) rather than the vendor's own API. */
  declared: boolean;
}

export interface ProviderAdapter {
  createJudge(options: AdapterOptions): TypedJudgePort;
  /** USD per MTok on the vendor's own API; undefined for a model it does not list. */
  priceOf(model: string): ModelPrice | undefined;
}

export const PROVIDER_ADAPTERS: { readonly [T in ProviderType]: ProviderAdapter } = {
  anthropic: {
    createJudge: (o) => createAnthropicJudge({ apiKey: o.apiKey ?? "unset", ...(o.baseURL !== undefined ? { baseURL: o.baseURL } : {}), timeoutMs: o.timeoutMs }),
    priceOf: anthropicPriceOf,
  },
  openai: {
    createJudge: (o) =>
      openAIJudgeOnFirstCall({
        ...(o.apiKey !== undefined ? { apiKey: o.apiKey } : {}),
        baseURL: o.baseURL ?? "https://api.openai.com/v1",
        timeoutMs: o.timeoutMs,
        // Local servers (vLLM, Ollama, llama.cpp) know max_tokens; OpenAI's o-series wants max_completion_tokens.
        maxTokensField: o.declared ? "max_tokens" : "max_completion_tokens",
        // The routing judge prices calls; the adapter's own figure is its table's.
        priceOf: o.declared ? () => undefined : openaiPriceOf,
      }),
    priceOf: openaiPriceOf,
  },
};

function openAIJudgeOnFirstCall(options: OpenAIJudgeOptions): TypedJudgePort {
  let judge: Promise<TypedJudgePort> | undefined;
  const grade = async (request: JudgeRequest<VerdictKind>, context: JudgeCallContext) => {
    judge ??= import("./openai-judge").then(({ createOpenAIJudge }) => createOpenAIJudge(options));
    return (await judge).grade(request, context);
  };
  return { grade } as TypedJudgePort;
}
