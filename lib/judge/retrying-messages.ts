import Anthropic from "@anthropic-ai/sdk";
import type { JudgeCallContext, JudgeSlot, TokenUsage } from "../engine/judge-port";
import { createNodeHttpFetch } from "./node-http-fetch";
import { backoffMs, classifyFailure, type AttemptFailure } from "./retry-policy";

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

export const DEFAULT_MAX_RETRIES = 4;

export type Sent = { ok: true; message: Anthropic.Message } | { ok: false; failure: AttemptFailure; attempts: number };

/** What one logical call accumulates across its attempts (and, for the judge, its repair). */
export interface CallState {
  attempts: number;
  usage: TokenUsage;
}

export interface RetryingMessages {
  /** One request, retried; returns holding the slot, whatever happened. Never throws for API trouble. */
  send(body: Anthropic.MessageCreateParamsNonStreaming, state: CallState, context: JudgeCallContext): Promise<Sent>;
}

export function createRetryingMessages(options: RetryingMessagesOptions): RetryingMessages {
  const client = new Anthropic({
    apiKey: options.apiKey,
    ...(options.baseURL === undefined ? {} : { baseURL: options.baseURL }),
    timeout: options.timeoutMs,
    maxRetries: 0,
    // CPU per call matters at thousands of calls a run: node:http instead of
    // the global fetch, and no OpenTelemetry spans (about 0.3 ms a call even
    // with no tracer registered). The call record carries what we measure.
    fetch: createNodeHttpFetch(),
    openTelemetry: false,
  });
  const { sleep } = options;
  const maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES;
  const random = options.random ?? Math.random;
  const now = options.now ?? Date.now;

  async function send(body: Anthropic.MessageCreateParamsNonStreaming, state: CallState, { slot, signal }: JudgeCallContext): Promise<Sent> {
    for (let retry = 0; ; retry++) {
      if (signal?.aborted) return { ok: false, failure: aborted(), attempts: retry };
      state.attempts++;
      // The SDK listens to the signal it is given; it gets one of its own per attempt, so that
      // however many calls of a run are in flight or waiting, the run's signal has one listener.
      const attempt = new AbortController();
      const unfollow = signal ? followAbort(signal, () => attempt.abort()) : undefined;
      try {
        const message = await client.messages.create(body, signal ? { signal: attempt.signal } : undefined);
        addUsage(state.usage, message.usage);
        return { ok: true, message };
      } catch (error) {
        const failure = classifyFailure(error, now);
        if (!failure.retryable || retry >= maxRetries) return { ok: false, failure, attempts: retry + 1 };
        unfollow?.();
        await waitWithoutSlot(failure.retryAfterMs ?? backoffMs(retry, random), slot, signal);
      } finally {
        unfollow?.();
      }
    }
  }

  async function waitWithoutSlot(ms: number, slot: JudgeSlot, signal: AbortSignal | undefined): Promise<void> {
    slot.release();
    try {
      await (sleep ? abortable(sleep(ms), signal) : sleepUnlessAborted(ms, signal));
    } finally {
      // Taken again even after an abort: the caller releases the slot when its call returns.
      await slot.acquire();
    }
  }

  return { send };
}

function aborted(): AttemptFailure {
  return { kind: "request", retryable: false, status: "aborted", message: "the call was aborted" };
}

function addUsage(total: TokenUsage, usage: Anthropic.Usage | undefined): void {
  if (!usage) return;
  total.input += usage.input_tokens;
  total.output += usage.output_tokens;
  total.cacheWrite += usage.cache_creation_input_tokens ?? 0;
  total.cacheRead += usage.cache_read_input_tokens ?? 0;
}

// One "abort" listener per signal, whatever the number of followers: a run's
// signal is shared by every call of the run, and with retries after 529s
// many calls wait or are in flight at once (Node warns past 10 listeners).
const followers = new WeakMap<AbortSignal, { listener: () => void; set: Set<() => void> }>();

/** Calls `onAbort` when `signal` aborts; the returned function stops following (idempotent). */
function followAbort(signal: AbortSignal, onAbort: () => void): () => void {
  let entry = followers.get(signal);
  if (!entry) {
    const set = new Set<() => void>();
    const listener = () => {
      followers.delete(signal);
      for (const follower of set) follower();
    };
    entry = { listener, set };
    followers.set(signal, entry);
    signal.addEventListener("abort", listener, { once: true });
  }
  const mine = entry;
  const follower = () => onAbort();
  mine.set.add(follower);
  return () => {
    if (!mine.set.delete(follower) || mine.set.size > 0) return;
    // The last follower left: the signal keeps no listener of ours.
    signal.removeEventListener("abort", mine.listener);
    if (followers.get(signal) === mine) followers.delete(signal);
  };
}

/** A timer that is cleared on abort, so that an aborted run leaves no long retry-after timers behind. */
function sleepUnlessAborted(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise<void>((resolve) => {
    if (signal?.aborted) return resolve();
    const unfollow = signal
      ? followAbort(signal, () => {
          clearTimeout(timer);
          resolve();
        })
      : undefined;
    const timer = setTimeout(() => {
      unfollow?.();
      resolve();
    }, ms);
  });
}

/** Resolves when `promise` does or the signal aborts, whichever comes first. */
function abortable(promise: Promise<void>, signal: AbortSignal | undefined): Promise<void> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.resolve();
  return new Promise<void>((resolve, reject) => {
    const unfollow = followAbort(signal, () => resolve());
    promise.then(
      () => {
        unfollow();
        resolve();
      },
      (error: unknown) => {
        unfollow();
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}
