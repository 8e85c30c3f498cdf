import type Anthropic from "@anthropic-ai/sdk";
import { BaseAnthropic } from "@anthropic-ai/sdk/client";
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIUserAbortError,
  type APIError,
} from "@anthropic-ai/sdk/error";
import { Messages } from "@anthropic-ai/sdk/resources/messages";
import { createNodeHttpFetch } from "./node-http-fetch";

// `messages.create` for a judge run, where a million calls send the same
// request shape. The SDK's own path builds the same headers again for every
// call (nested header merges, undici Headers sorted on every iteration,
// generators, promise chains): measured at ~60 µs of CPU a call against ~10
// for the request itself, a sixth of a judge call's whole CPU. So the first
// request goes through the SDK as it is, the headers the SDK gave it are kept,
// and the later ones are sent with those very headers in the same order and
// the body the SDK would write (JSON.stringify of the params), through the same
// transport; replies are read as the SDK reads them, and failures become the
// SDK's own error classes, made by the SDK (`makeStatusError`), so retries and
// error kinds do not change; a model whose create() warns (deprecated) stays on
// the SDK's path. test/judge/wire-bytes.test.ts holds the bytes to what the SDK
// path sent. Message Batches keep the SDK's path (message-batches-client.ts).

export interface MessagesSender {
  create(
    body: Anthropic.MessageCreateParamsNonStreaming,
    signal: AbortSignal | undefined,
  ): Promise<Anthropic.Message>;
}

/** The SDK's client, its status-error mapping reachable (protected in its types). */
class MessagesClient extends BaseAnthropic {
  statusError(
    status: number,
    body: object | undefined,
    message: string | undefined,
    headers: Headers,
  ): APIError {
    return this.makeStatusError(status, body as object, message, headers);
  }
}

/** What the SDK sent its first `messages.create` with: the URL and the headers, in order. */
interface Sent {
  url: string;
  headers: Record<string, string>;
}

export function createMessagesSender(options: {
  apiKey: string;
  baseURL?: string;
  timeoutMs: number;
}): MessagesSender {
  const fetch = createNodeHttpFetch();
  let sent: Sent | undefined;
  const recording: typeof globalThis.fetch = (input, init) => {
    if (sent === undefined && init?.method === "POST" && typeof input === "string")
      sent = { url: input, headers: headerRecord(init.headers) };
    return fetch(input, init);
  };
  const client = new MessagesClient({
    apiKey: options.apiKey,
    ...(options.baseURL === undefined ? {} : { baseURL: options.baseURL }),
    timeout: options.timeoutMs,
    maxRetries: 0,
    // CPU per call matters at thousands of calls a run: node:http instead of
    // the global fetch, and no OpenTelemetry spans (about 0.3 ms a call even
    // with no tracer registered). The call record carries what we measure.
    fetch: recording,
    openTelemetry: false,
  });
  const messages = new Messages(client);

  async function direct(
    to: Sent,
    body: Anthropic.MessageCreateParamsNonStreaming,
    signal: AbortSignal | undefined,
  ): Promise<Anthropic.Message> {
    if (signal?.aborted) throw new APIUserAbortError();
    // As the SDK: its own controller, aborted by the caller's signal or the timeout.
    const controller = new AbortController();
    const abort = () => controller.abort();
    signal?.addEventListener("abort", abort, { once: true });
    const timer = setTimeout(abort, options.timeoutMs);
    let response: Response;
    try {
      response = await fetch(to.url, {
        method: "POST",
        headers: to.headers,
        body: JSON.stringify(body),
        signal: controller.signal,
      });
    } catch (error) {
      if (signal?.aborted) throw new APIUserAbortError();
      if (isTimeout(error)) throw new APIConnectionTimeoutError();
      throw new APIConnectionError({
        cause: error instanceof Error ? error : new Error(String(error)),
      });
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener("abort", abort);
    }
    if (!response.ok) {
      const text = await response.text();
      const json = safeJson(text);
      throw client.statusError(
        response.status,
        json,
        json === undefined ? text : undefined,
        response.headers,
      );
    }
    return (await replyBody(response)) as Anthropic.Message;
  }

  // A model the SDK warns about on every call (a deprecated one: its create() says so on the
  // console each time) stays on the SDK's path, so the warnings are as before; the first call of
  // each model tells which.
  const quiet = new Map<string, boolean>();
  function throughSdk(body: Anthropic.MessageCreateParamsNonStreaming, signal?: AbortSignal) {
    if (quiet.has(body.model)) return messages.create(body, signal ? { signal } : undefined);
    const warn = console.warn;
    let warned = false;
    console.warn = (...args: unknown[]) => {
      warned = true;
      warn.apply(console, args);
    };
    try {
      return messages.create(body, signal ? { signal } : undefined);
    } finally {
      console.warn = warn;
      quiet.set(body.model, !warned);
    }
  }

  return {
    create: (body, signal) =>
      sent !== undefined && quiet.get(body.model) === true
        ? direct(sent, body, signal)
        : throughSdk(body, signal),
  };
}

/** The headers as the SDK handed them to fetch (a Headers, iterated in its order), as a record. */
function headerRecord(headers: RequestInit["headers"]): Record<string, string> {
  const out: Record<string, string> = {};
  new Headers(headers).forEach((value, name) => {
    out[name] = value;
  });
  return out;
}

/** The SDK's reading of a successful reply (internal/parse.mjs): JSON by content type, else text. */
async function replyBody(response: Response): Promise<unknown> {
  if (response.status === 204) return null;
  const mediaType = response.headers.get("content-type")?.split(";")[0]?.trim();
  if (mediaType?.includes("application/json") || mediaType?.endsWith("+json")) {
    if (response.headers.get("content-length") === "0") return undefined;
    return response.json();
  }
  return response.text();
}

function safeJson(text: string): object | undefined {
  try {
    return JSON.parse(text) as object;
  } catch {
    return undefined;
  }
}

/** As the SDK tells a timeout from other connection failures. */
function isTimeout(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error.name === "AbortError") return true;
  const cause = "cause" in error ? String(error.cause) : "";
  return /timed? ?out/i.test(String(error) + cause);
}
