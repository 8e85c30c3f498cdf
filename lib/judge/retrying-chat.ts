import OpenAI from "openai";
import type { JudgeCallContext, TokenUsage } from "../engine/ports/judge-port";
import type { CallState } from "./call-ledger";
import { createNodeHttpFetch } from "./node-http-fetch";
import type { AttemptFailure } from "./retry-policy";
import { createRetryLoop, type RetryLoopOptions } from "./retry-loop";

// One Chat Completions request with our retries: what retrying-messages.ts is
// for the Messages API, for an OpenAI-compatible endpoint. The live agent on
// such a model gets it through its deps (lib/live does not import lib/judge),
// so its calls retry exactly as the judge's do; the judge's client is made here too.

export interface RetryingChatOptions extends RetryLoopOptions {
  /** Optional: a local server may need none (a placeholder is sent). */
  apiKey?: string;
  baseURL: string;
  /** Per HTTP attempt. */
  timeoutMs: number;
}

export type ChatSent =
  | { ok: true; completion: OpenAI.Chat.Completions.ChatCompletion }
  | { ok: false; failure: AttemptFailure; attempts: number };

export interface RetryingChat {
  /** One request, retried; returns holding the slot, whatever happened. Never throws for API trouble. */
  send(
    body: OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming,
    state: CallState,
    context: JudgeCallContext,
  ): Promise<ChatSent>;
}

/** The SDK's client as both the judge and the agent use it: its own retries off, node:http as transport. */
export function createOpenAIClient(
  options: Pick<RetryingChatOptions, "apiKey" | "baseURL" | "timeoutMs">,
): OpenAI {
  return new OpenAI({
    apiKey: options.apiKey ?? "no-key",
    baseURL: options.baseURL,
    timeout: options.timeoutMs,
    maxRetries: 0,
    fetch: createNodeHttpFetch(),
  });
}

export function createRetryingChat(options: RetryingChatOptions): RetryingChat {
  const client = createOpenAIClient(options);
  const loop = createRetryLoop({ ...options, sdkErrors: OpenAI });
  return {
    async send(body, state, context) {
      const sent = await loop.run(
        (signal) => client.chat.completions.create(body, signal ? { signal } : undefined),
        state,
        context,
      );
      if (!sent.ok) return sent;
      addChatUsage(state.usage, sent.value.usage);
      return { ok: true, completion: sent.value };
    },
  };
}

/**
 * prompt_tokens counts the cached ones too; ours keeps uncached input and cache reads apart, as the
 * Messages API does.
 */
export function addChatUsage(total: TokenUsage, usage: OpenAI.CompletionUsage | undefined): void {
  if (!usage) return;
  const cached = usage.prompt_tokens_details?.cached_tokens ?? 0;
  total.input += Math.max(0, usage.prompt_tokens - cached);
  total.cacheRead += cached;
  total.output += usage.completion_tokens;
}
