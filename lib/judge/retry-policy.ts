import * as anthropic from "@anthropic-ai/sdk";
import * as openai from "openai";
import type { JudgeErrorKind } from "../engine/judge-port";

// Which failures of one HTTP attempt are worth another attempt, and how long to
// wait first. The SDK's own retries are off (maxRetries: 0) because it waits
// while the caller still holds its concurrency slot; the adapter retries
// instead and gives the slot back during the wait.

export interface AttemptFailure {
  kind: JudgeErrorKind;
  retryable: boolean;
  /** HTTP status, or a word for failures without one ("timeout", "connection error", "aborted"). */
  status: string;
  /** What the server asked us to wait, from retry-after-ms or retry-after. */
  retryAfterMs?: number;
  message: string;
}

const BASE_DELAY_MS = 500;
const MAX_DELAY_MS = 30_000;
/** A retry-after beyond this is not waited out in full: the run would look hung. */
const MAX_RETRY_AFTER_MS = 5 * 60_000;

// Both SDKs (Anthropic, OpenAI) throw the same family of errors, each its own classes.
const isAbort = (e: unknown) => e instanceof anthropic.APIUserAbortError || e instanceof openai.APIUserAbortError;
const isTimeout = (e: unknown) => e instanceof anthropic.APIConnectionTimeoutError || e instanceof openai.APIConnectionTimeoutError;
const isConnection = (e: unknown): e is Error => e instanceof anthropic.APIConnectionError || e instanceof openai.APIConnectionError;

export function classifyFailure(error: unknown, now: () => number): AttemptFailure {
  if (isAbort(error)) {
    return { kind: "request", retryable: false, status: "aborted", message: "the judge call was aborted" };
  }
  // Before APIConnectionError: a timeout is a subclass of it.
  if (isTimeout(error)) {
    return { kind: "timeout", retryable: true, status: "timeout", message: "the request timed out" };
  }
  if (isConnection(error)) {
    return { kind: "connection", retryable: true, status: "connection error", message: error.message };
  }
  if ((error instanceof anthropic.APIError || error instanceof openai.APIError) && typeof error.status === "number") {
    const headers = error.headers;
    const retryAfterMs = headers ? parseRetryAfter(headers, now) : undefined;
    const kind = kindOfStatus(error.status, error.type ?? null);
    // The API says outright whether a retry can help; without that, the kind decides.
    const shouldRetry = headers?.get("x-should-retry");
    const retryable = shouldRetry === "true" ? true : shouldRetry === "false" ? false : RETRYABLE_KINDS.has(kind);
    return {
      kind,
      retryable,
      status: String(error.status),
      ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
      message: (error instanceof anthropic.APIError ? error.apiMessage : undefined) ?? error.message,
    };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { kind: "request", retryable: false, status: "client error", message };
}

const RETRYABLE_KINDS: ReadonlySet<JudgeErrorKind> = new Set(["rate_limited", "overloaded", "server", "timeout", "connection"]);

function kindOfStatus(status: number, type: string | null): JudgeErrorKind {
  if (status === 429) return "rate_limited";
  if (status === 529 || type === "overloaded_error") return "overloaded";
  // 408 is the server giving up on a slow request: a timeout, and retried like one.
  if (status === 408) return "timeout";
  if (status === 401 || status === 403) return "auth";
  if (status >= 500) return "server";
  return "request";
}

/** retry-after-ms (milliseconds), else retry-after (seconds or an HTTP date); undefined when absent or unusable. */
export function parseRetryAfter(headers: Headers, now: () => number): number | undefined {
  const ms = Number.parseFloat(headers.get("retry-after-ms") ?? "");
  if (Number.isFinite(ms) && ms >= 0) return Math.min(ms, MAX_RETRY_AFTER_MS);
  const value = headers.get("retry-after");
  if (value === null) return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.min(Number.parseFloat(trimmed) * 1000, MAX_RETRY_AFTER_MS);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.min(Math.max(0, date - now()), MAX_RETRY_AFTER_MS);
}

/**
 * Exponential backoff with "equal jitter": half the delay is fixed, half random,
 * so that calls that failed together do not all come back together.
 * retryIndex 0 is the wait before the second attempt.
 */
export function backoffMs(retryIndex: number, random: () => number): number {
  const ceiling = Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** retryIndex);
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}
