import type { ProviderType } from "../config/provider-schema";
import type { ModelPrice } from "../engine/cost";
import type { TypedJudgePort } from "../engine/judge-port";
import { createAnthropicJudge } from "./anthropic-judge";
import { createOpenAIJudge } from "./openai-judge";
import { openaiPriceOf } from "./openai-pricing";
import { priceOf as anthropicPriceOf } from "./pricing";
import { createRetryingChat, type RetryingChat } from "./retrying-chat";
import { createRetryingMessages, type RetryingMessages } from "./retrying-messages";

// One adapter per provider type behind the judge port (DESIGN.md house rule 5),
// each with its own price table. test/judge/provider-registry.test.ts walks it.

export interface AdapterOptions {
  apiKey?: string;
  /** Undefined: the vendor's public API. */
  baseURL?: string;
  timeoutMs: number;
  /** Declared under providers: (a local server or a proxy) rather than the vendor's own API. */
  declared: boolean;
}

/** A live agent's model API with our retries: the shape of lib/live's AgentEndpoint, without the model. */
export type AgentSender =
  | { api: "messages"; messages: RetryingMessages }
  | { api: "chat"; chat: RetryingChat; maxTokensField: "max_completion_tokens" | "max_tokens" };

export interface ProviderAdapter {
  createJudge(options: AdapterOptions): TypedJudgePort;
  /** The sender a live agent on this provider's models talks through (same retry policy as the judge). */
  createAgentSender(options: AdapterOptions): AgentSender;
  /** USD per MTok on the vendor's own API; undefined for a model it does not list. */
  priceOf(model: string): ModelPrice | undefined;
}

const OPENAI_API = "https://api.openai.com/v1";
// Local servers (vLLM, Ollama, llama.cpp) know max_tokens; OpenAI's o-series wants max_completion_tokens.
const tokenFieldOf = (o: AdapterOptions) => (o.declared ? "max_tokens" : "max_completion_tokens");

export const PROVIDER_ADAPTERS: { readonly [T in ProviderType]: ProviderAdapter } = {
  anthropic: {
    createJudge: (o) => createAnthropicJudge({ apiKey: o.apiKey ?? "unset", ...(o.baseURL !== undefined ? { baseURL: o.baseURL } : {}), timeoutMs: o.timeoutMs }),
    createAgentSender: (o) => ({
      api: "messages",
      messages: createRetryingMessages({ apiKey: o.apiKey ?? "unset", ...(o.baseURL !== undefined ? { baseURL: o.baseURL } : {}), timeoutMs: o.timeoutMs }),
    }),
    priceOf: anthropicPriceOf,
  },
  openai: {
    createJudge: (o) =>
      createOpenAIJudge({
        ...(o.apiKey !== undefined ? { apiKey: o.apiKey } : {}),
        baseURL: o.baseURL ?? OPENAI_API,
        timeoutMs: o.timeoutMs,
        maxTokensField: tokenFieldOf(o),
        // The routing judge prices calls; the adapter's own figure is its table's.
        priceOf: o.declared ? () => undefined : openaiPriceOf,
      }),
    createAgentSender: (o) => ({
      api: "chat",
      chat: createRetryingChat({ ...(o.apiKey !== undefined ? { apiKey: o.apiKey } : {}), baseURL: o.baseURL ?? OPENAI_API, timeoutMs: o.timeoutMs }),
      maxTokensField: tokenFieldOf(o),
    }),
    priceOf: openaiPriceOf,
  },
};
