import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { checkRequest } from "./check-messages-request";
import { createPromptCache, type PromptCacheOptions } from "./prompt-cache";
import { createFakeBatches, type FakeBatch, type FakeBatchOptions } from "./fake-message-batches";
import {
  addUsage,
  describeRequest,
  messageFor,
  type FakeReply,
  type FakeRequest,
  type InputUsage,
} from "./fake-message-reply";

export type { FakeReply, FakeRequest, FakeUsage, InputUsage } from "./fake-message-reply";

// A stand-in of the Anthropic Messages API on 127.0.0.1, so that tests run the
// real SDK over real HTTP (DESIGN.md, the judge protocol). It answers what the
// test tells it to, in the shapes the real API uses, and checks the few things
// about a request that the real API would reject with a 400.

export type FakeRespond = (request: FakeRequest) => FakeReply | Promise<FakeReply>;

export interface FakeMessagesApiOptions {
  /** Delay before each answer (not before a hang). */
  latencyMs?: number;
  respond?: FakeRespond;
  /** 0 (the default) picks a free port. */
  port?: number;
  /**
   * Emulate the prompt cache (prompt-cache.ts): usage then reports cache
   * writes and reads by prefix. Without it, every request's input is counted
   * uncached, unless a reply sets the usage itself.
   */
  promptCache?: PromptCacheOptions | true;
  /** How the Message Batches endpoints process a batch (fake-message-batches.ts). */
  batches?: FakeBatchOptions;
}

export interface FakeMessagesApi {
  /** The base URL to give the SDK (no trailing slash, no /v1). */
  url: string;
  requests: FakeRequest[];
  close(): Promise<void>;
  setRespond(fn: FakeRespond): void;
  /** Requests received and not yet answered (or abandoned by the client). */
  inFlight(): number;
  /** Plain requests answered 200 (a verdict sent, so billed), since it started. */
  answered(): number;
  /** Plain requests whose client left (a timeout, an abort, a killed process) before the answer. */
  abandoned(): number;
  /** The input usage of every 200 reply sent so far, summed. */
  usage(): InputUsage;
  maxInFlight(): number;
  /** Every message batch created, in order. */
  batches: FakeBatch[];
  /** How many times each batched custom_id was billed (a succeeded result), over every batch. */
  batchBilled: Map<string, number>;
  /** The input usage of the batched requests that succeeded, summed (billed at half the price). */
  batchUsage(): InputUsage;
  /** With `batches: { hold: true }`: let held batches be processed from now on. */
  releaseBatches(): void;
  /** Ends every batch still in progress, its unprocessed requests expired (the real API's 24 hours). */
  expireBatches(): void;
}

const DEFAULT_REPLY: FakeReply = { verdict: { reasoning: "ok", score: 1 } };

const ERROR_TYPES: Record<number, string> = {
  400: "invalid_request_error",
  401: "authentication_error",
  402: "billing_error",
  403: "permission_error",
  404: "not_found_error",
  408: "timeout_error",
  413: "request_too_large",
  429: "rate_limit_error",
  500: "api_error",
  504: "timeout_error",
  529: "overloaded_error",
};

export function errorTypeFor(status: number): string {
  return ERROR_TYPES[status] ?? (status >= 500 ? "api_error" : "invalid_request_error");
}

export async function startFakeMessagesApi(
  options: FakeMessagesApiOptions = {},
): Promise<FakeMessagesApi> {
  let respond: FakeRespond = options.respond ?? (() => DEFAULT_REPLY);
  const latencyMs = options.latencyMs ?? 0;
  const requests: FakeRequest[] = [];
  const timers = new Set<NodeJS.Timeout>();
  let inFlight = 0;
  let maxInFlight = 0;
  let answered = 0;
  let abandoned = 0;
  let serial = 0;
  const sent: InputUsage = { input: 0, cacheWrite: 0, cacheWrite1h: 0, cacheRead: 0 };
  const cache = options.promptCache
    ? createPromptCache(options.promptCache === true ? {} : options.promptCache)
    : undefined;
  const batchSent: InputUsage = { input: 0, cacheWrite: 0, cacheWrite1h: 0, cacheRead: 0 };
  let baseUrl = "";
  const batches = createFakeBatches({
    baseUrl: () => baseUrl,
    options: options.batches ?? {},
    send,
    sendError,
    // One batched request: checked, answered by `respond` and billed like a plain one, in turn.
    answer: async ({ customId, params, headers }) => {
      const request = {
        ...describeRequest({
          index: requests.length,
          method: "POST",
          headers,
          path: "/v1/messages/batches",
          body: params,
        }),
        customId,
      };
      requests.push(request);
      const invalid = checkRequest(headers, params);
      if (invalid)
        return { kind: "error", type: errorTypeFor(invalid.status), message: invalid.message };
      const reply = await respond(request);
      if ("hang" in reply) return { kind: "only", batchResult: "expired" };
      if ("batchResult" in reply) return { kind: "only", batchResult: reply.batchResult };
      if ("status" in reply)
        return { kind: "error", type: errorTypeFor(reply.status), message: `fake ${reply.status}` };
      const cached = cache?.admit(params);
      cached?.begin();
      const message = messageFor({
        reply,
        request,
        bodyLength: JSON.stringify(params).length,
        serial: ++serial,
        ...(cached ? { cacheUsage: cached.usage } : {}),
      });
      addUsage(batchSent, message.usage);
      return { kind: "message", message };
    },
  });

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      let counted = true;
      const done = () => {
        if (counted) inFlight--;
        counted = false;
      };
      // A client that times out or aborts closes the socket without an answer.
      res.on("close", done);
      const raw = Buffer.concat(chunks).toString("utf8");
      void handle(req, res, raw).catch((error: unknown) => {
        if (!res.headersSent) sendError(res, 500, `fake server failure: ${String(error)}`);
      });
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse, raw: string): Promise<void> {
    const path = (req.url ?? "/").split("?")[0] ?? "/";
    if (await batches.handle(req, res, path, raw)) return;
    if (req.method !== "POST" || path !== "/v1/messages") {
      sendError(res, 404, `${req.method ?? "?"} ${path} is not served by the fake Messages API`);
      return;
    }
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(raw) as Record<string, unknown>;
    } catch {
      sendError(res, 400, "The request body is not valid JSON.");
      return;
    }
    const request = describeRequest({
      index: requests.length,
      method: req.method ?? "POST",
      headers: req.headers,
      path,
      body,
    });
    requests.push(request);
    const invalid = checkRequest(req.headers, body);
    if (invalid) {
      sendError(res, invalid.status, invalid.message);
      return;
    }
    const reply = await respond(request);
    if ("hang" in reply) return; // answered by close(), or abandoned by the client
    if ("batchResult" in reply)
      return sendError(res, 500, "fake server misuse: a batch result for a plain request");
    // Cache entries are written when the request is processed, and readable once its response begins.
    const cached = "status" in reply ? undefined : cache?.admit(body);
    if (latencyMs > 0) await delay(latencyMs);
    if (res.destroyed) {
      abandoned++;
      return;
    }
    if ("status" in reply) {
      const payload = reply.body ?? {
        type: "error",
        error: { type: errorTypeFor(reply.status), message: `fake ${reply.status}` },
      };
      send(res, reply.status, payload, reply.headers);
      return;
    }
    cached?.begin();
    const message = messageFor({
      reply,
      request,
      bodyLength: raw.length,
      serial: ++serial,
      ...(cached ? { cacheUsage: cached.usage } : {}),
    });
    addUsage(sent, message.usage);
    answered++;
    send(res, 200, message);
  }

  function delay(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        resolve();
      }, ms);
      timers.add(timer);
    });
  }

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  baseUrl = `http://127.0.0.1:${port}`;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    setRespond(fn) {
      respond = fn;
    },
    inFlight: () => inFlight,
    answered: () => answered,
    abandoned: () => abandoned,
    usage: () => ({ ...sent }),
    maxInFlight: () => maxInFlight,
    batches: batches.batches,
    batchBilled: batches.billed,
    batchUsage: () => ({ ...batchSent }),
    releaseBatches: batches.release,
    expireBatches: batches.expire,
    close() {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      return new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Hanging requests and idle keep-alive sockets would hold close() open.
        server.closeAllConnections();
      });
    },
  };
}

let requestSerial = 0;

function send(
  res: ServerResponse,
  status: number,
  payload: unknown,
  headers: Record<string, string> = {},
): void {
  const text = typeof payload === "string" ? payload : JSON.stringify(payload);
  res.writeHead(status, {
    "content-type": "application/json",
    "request-id": `req_fake_${++requestSerial}`,
    "content-length": Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

function sendError(res: ServerResponse, status: number, message: string): void {
  send(res, status, { type: "error", error: { type: errorTypeFor(status), message } });
}
