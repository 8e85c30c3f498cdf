import * as anthropic from "@anthropic-ai/sdk/error";
import type { JudgeErrorKind } from "../engine/ports/judge-port";

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

type ErrorClass<T = Error> = abstract new (...args: never[]) => T;
interface ApiErrorLike extends Error {
  status: number | undefined;
  headers: Headers | undefined;
  type?: string | null;
  /** Anthropic's: the message of the error body. */
  apiMessage?: string | null;
}

/**
 * The error classes of one SDK: Anthropic's and OpenAI's throw the same family
 * of errors, each its own classes. Each adapter passes its SDK's, so that a
 * run on one vendor never loads the other's SDK.
 */
export interface SdkErrors {
  APIError: ErrorClass<ApiErrorLike>;
  APIUserAbortError: ErrorClass;
  APIConnectionError: ErrorClass;
  APIConnectionTimeoutError: ErrorClass;
}

const ANTHROPIC_ERRORS: SdkErrors = anthropic;

export function classifyFailure(
  error: unknown,
  now: () => number,
  sdk: SdkErrors = ANTHROPIC_ERRORS,
): AttemptFailure {
  if (error instanceof sdk.APIUserAbortError) {
    return {
      kind: "request",
      retryable: false,
      status: "aborted",
      message: "the judge call was aborted",
    };
  }
  // Before APIConnectionError: a timeout is a subclass of it.
  if (error instanceof sdk.APIConnectionTimeoutError) {
    return {
      kind: "timeout",
      retryable: true,
      status: "timeout",
      message: "the request timed out",
    };
  }
  if (error instanceof sdk.APIConnectionError) {
    return {
      kind: "connection",
      retryable: true,
      status: "connection error",
      message: error.message,
    };
  }
  if (error instanceof sdk.APIError && typeof error.status === "number") {
    const headers = error.headers;
    const retryAfterMs = headers ? parseRetryAfter(headers, now) : undefined;
    const kind = kindOfStatus(error.status, error.type ?? null);
    // The API says outright whether a retry can help; without that, the kind decides.
    const shouldRetry = headers?.get("x-should-retry");
    const retryable =
      shouldRetry === "true" ? true : shouldRetry === "false" ? false : RETRYABLE_KINDS.has(kind);
    return {
      kind,
      retryable,
      status: String(error.status),
      ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
      message: error.apiMessage ?? error.message,
    };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { kind: "request", retryable: false, status: "client error", message };
}

const RETRYABLE_KINDS: ReadonlySet<JudgeErrorKind> = new Set([
  "rate_limited",
  "overloaded",
  "server",
  "timeout",
  "connection",
]);

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
  if (/^\d+(\.\d+)?$/.test(trimmed))
    return Math.min(Number.parseFloat(trimmed) * 1000, MAX_RETRY_AFTER_MS);
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
