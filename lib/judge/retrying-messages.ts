import type Anthropic from "@anthropic-ai/sdk";
import type { JudgeCallContext, TokenUsage } from "../engine/ports/judge-port";
import { createMessagesSender } from "./messages-sender";
import type { AttemptFailure } from "./retry-policy";
import { createRetryLoop } from "./retry-loop";

// One Messages API request with our retries, shared by the judge and the live
// agent (lib/live receives it through its deps, so both pay the same policy):
// 429, 529, 5xx, timeouts and connection errors are retried, honouring
// retry-after, and the concurrency slot is given back while a retry waits.

export interface RetryingMessagesOptions {
  apiKey: string;
  /** Defaults to what the SDK reads from ANTHROPIC_BASE_URL, else the public API. */
  baseURL?: string;
  /** Per HTTP attempt. */
  timeoutMs: number;
  /** Retries after the first attempt. Default 4. */
  maxRetries?: number;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  now?: () => number;
}

export { DEFAULT_MAX_RETRIES } from "./retry-loop";

export type Sent =
  | { ok: true; message: Anthropic.Message }
  | { ok: false; failure: AttemptFailure; attempts: number };

import type { CallState } from "./call-ledger";
export type { CallState };

export interface RetryingMessages {
  /** One request, retried; returns holding the slot, whatever happened. Never throws for API trouble. */
  send(
    body: Anthropic.MessageCreateParamsNonStreaming,
    state: CallState,
    context: JudgeCallContext,
  ): Promise<Sent>;
}

export function createRetryingMessages(options: RetryingMessagesOptions): RetryingMessages {
  // The SDK's client with the one resource used (its full client builds every resource: beta,
  // files, models, ...; the CLI would load three times the code), over node:http, without
  // tracing, and with its per-call header building done once (messages-sender.ts).
  const messages = createMessagesSender(options);
  const retrying = createRetryLoop(options);

  async function send(
    body: Anthropic.MessageCreateParamsNonStreaming,
    state: CallState,
    context: JudgeCallContext,
  ): Promise<Sent> {
    const sent = await retrying.run((signal) => messages.create(body, signal), state, context);
    if (!sent.ok) return sent;
    addUsage(state.usage, sent.value.usage);
    state.modelVersion = sent.value.model;
    return { ok: true, message: sent.value };
  }

  return { send };
}

/** Adds a Messages API reply's usage (cache writes and reads included) to a call's total. */
export function addUsage(total: TokenUsage, usage: Anthropic.Usage | undefined): void {
  if (!usage) return;
  total.input += usage.input_tokens;
  total.output += usage.output_tokens;
  total.cacheWrite += usage.cache_creation_input_tokens ?? 0;
  // The part written to the 1-hour cache, billed at 2× input rather than 1.25×.
  const hour = usage.cache_creation?.ephemeral_1h_input_tokens ?? 0;
  if (hour > 0) total.cacheWrite1h = (total.cacheWrite1h ?? 0) + hour;
  total.cacheRead += usage.cache_read_input_tokens ?? 0;
}
