import type { ProviderType } from "../config/provider-schema";
import type { ModelPrice } from "../engine/cost/cost";
import type {
  JudgeCallContext,
  JudgeRequest,
  TypedJudgePort,
  VerdictKind,
} from "../engine/ports/judge-port";
import { createAnthropicJudge } from "./anthropic-judge";
import type { OpenAIJudgeOptions } from "./openai-judge";
import { PRICE_TABLES } from "./provider-resolution";
import type { RetryingChat, RetryingChatOptions } from "./retrying-chat";
import { createRetryingMessages, type RetryingMessages } from "./retrying-messages";

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
    createJudge: (o) =>
      createAnthropicJudge({
        apiKey: o.apiKey ?? "unset",
        ...(o.baseURL !== undefined ? { baseURL: o.baseURL } : {}),
        timeoutMs: o.timeoutMs,
      }),
    createAgentSender: (o) => ({
      api: "messages",
      messages: createRetryingMessages({
        apiKey: o.apiKey ?? "unset",
        ...(o.baseURL !== undefined ? { baseURL: o.baseURL } : {}),
        timeoutMs: o.timeoutMs,
      }),
    }),
    priceOf: PRICE_TABLES.anthropic,
  },
  openai: {
    createJudge: (o) =>
      openAIJudgeOnFirstCall({
        ...(o.apiKey !== undefined ? { apiKey: o.apiKey } : {}),
        baseURL: o.baseURL ?? OPENAI_API,
        timeoutMs: o.timeoutMs,
        maxTokensField: tokenFieldOf(o),
        // The routing judge prices calls; the adapter's own figure is its table's.
        priceOf: o.declared ? () => undefined : PRICE_TABLES.openai,
      }),
    createAgentSender: (o) => ({
      api: "chat",
      chat: retryingChatOnFirstCall({
        ...(o.apiKey !== undefined ? { apiKey: o.apiKey } : {}),
        baseURL: o.baseURL ?? OPENAI_API,
        timeoutMs: o.timeoutMs,
      }),
      maxTokensField: tokenFieldOf(o),
    }),
    priceOf: PRICE_TABLES.openai,
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

/**
 * The agent's Chat Completions sender, its SDK loaded on its first request (an eval on Claude
 * models never loads openai).
 */
function retryingChatOnFirstCall(options: RetryingChatOptions): RetryingChat {
  let chat: Promise<RetryingChat> | undefined;
  return {
    async send(body, state, context) {
      chat ??= import("./retrying-chat").then(({ createRetryingChat }) =>
        createRetryingChat(options),
      );
      return (await chat).send(body, state, context);
    },
  };
}
