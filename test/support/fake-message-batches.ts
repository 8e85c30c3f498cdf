import { randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";

// The Message Batches endpoints of the Messages API stand-in, in the real
// API's shapes (create, retrieve, results as JSONL, cancel), so that tests
// drive the SDK's `messages.batches` over HTTP. A batch's requests are
// answered by the stand-in's `respond`, one after another when the batch is
// processed, through the same prompt-cache emulation as /v1/messages (each
// response begins before the next request is admitted, so later requests of
// a batch read what earlier ones wrote). Batches are processed when a client
// looks at them after `processAfterMs`, or, with `hold`, once the test calls
// `release()`; `expire()` ends every batch still in progress with its
// requests expired, as the real API does after 24 hours.

export interface FakeBatchOptions {
  /** A batch stays in progress at least this long (default 0). */
  processAfterMs?: number;
  /** Keep every batch in progress until release() (or expire()). */
  hold?: boolean;
}

/** What the stand-in's `respond` may answer to a batched request besides a message or an error status. */
export type BatchOnlyReply = { batchResult: "expired" | "canceled" };

type Result =
  | { type: "succeeded"; message: unknown }
  | { type: "errored"; error: { type: "error"; error: { type: string; message: string } } }
  | { type: "canceled" }
  | { type: "expired" };

export interface FakeBatch {
  id: string;
  createdAt: number;
  status: "in_progress" | "canceling" | "ended";
  cancelRequested: boolean;
  requests: { custom_id: string; params: Record<string, unknown> }[];
  results: Map<string, Result>;
  endedAt?: number;
}

/** One batched request as the stand-in's `respond` sees it, answered into a batch result. */
export type AnswerBatched = (input: {
  customId: string;
  params: Record<string, unknown>;
  headers: IncomingMessage["headers"];
}) => Promise<
  | { kind: "message"; message: unknown }
  | { kind: "error"; type: string; message: string }
  | (BatchOnlyReply & { kind: "only" })
>;

export interface FakeBatches {
  /** Answers a /v1/messages/batches request; false when the path is not a batch endpoint. */
  handle(req: IncomingMessage, res: ServerResponse, path: string, raw: string): Promise<boolean>;
  batches: FakeBatch[];
  /** How many times each custom_id was billed (a succeeded result), over every batch. */
  billed: Map<string, number>;
  release(): void;
  expire(): void;
}

const CUSTOM_ID = /^[a-zA-Z0-9_-]{1,64}$/;
const MAX_REQUESTS = 100_000;
const DAY = 24 * 3600_000;

export function createFakeBatches(input: {
  baseUrl: () => string;
  answer: AnswerBatched;
  options: FakeBatchOptions;
  send: (
    res: ServerResponse,
    status: number,
    payload: unknown,
    headers?: Record<string, string>,
  ) => void;
  sendError: (res: ServerResponse, status: number, message: string) => void;
}): FakeBatches {
  const { answer, options, send, sendError } = input;
  const batches: FakeBatch[] = [];
  const billed = new Map<string, number>();
  let held = options.hold ?? false;
  let expiring = false;
  let serial = 0;

  async function process(batch: FakeBatch): Promise<void> {
    if (batch.status === "ended") return;
    const due =
      batch.cancelRequested ||
      expiring ||
      (!held && Date.now() - batch.createdAt >= (options.processAfterMs ?? 0));
    if (!due) return;
    for (const request of batch.requests) {
      if (batch.results.has(request.custom_id)) continue;
      if (batch.cancelRequested) batch.results.set(request.custom_id, { type: "canceled" });
      else if (expiring) batch.results.set(request.custom_id, { type: "expired" });
      else batch.results.set(request.custom_id, await resultOf(batch, request));
    }
    batch.status = "ended";
    batch.endedAt = Date.now();
  }

  const headersOf = new Map<string, IncomingMessage["headers"]>();
  async function resultOf(
    batch: FakeBatch,
    request: FakeBatch["requests"][number],
  ): Promise<Result> {
    const reply = await answer({
      customId: request.custom_id,
      params: request.params,
      headers: headersOf.get(batch.id) ?? {},
    });
    if (reply.kind === "only") return { type: reply.batchResult };
    if (reply.kind === "error")
      return {
        type: "errored",
        error: { type: "error", error: { type: reply.type, message: reply.message } },
      };
    billed.set(request.custom_id, (billed.get(request.custom_id) ?? 0) + 1);
    return { type: "succeeded", message: reply.message };
  }

  function view(batch: FakeBatch) {
    const counts = { processing: 0, succeeded: 0, errored: 0, canceled: 0, expired: 0 };
    for (const request of batch.requests) {
      const result = batch.results.get(request.custom_id);
      if (!result) counts.processing++;
      else counts[result.type]++;
    }
    const iso = (ms: number) => new Date(ms).toISOString();
    return {
      id: batch.id,
      type: "message_batch",
      processing_status: batch.status,
      request_counts: counts,
      created_at: iso(batch.createdAt),
      expires_at: iso(batch.createdAt + DAY),
      ended_at: batch.endedAt === undefined ? null : iso(batch.endedAt),
      cancel_initiated_at: batch.cancelRequested ? iso(batch.createdAt) : null,
      archived_at: null,
      results_url:
        batch.status === "ended"
          ? `${input.baseUrl()}/v1/messages/batches/${batch.id}/results`
          : null,
    };
  }

  async function handle(
    req: IncomingMessage,
    res: ServerResponse,
    path: string,
    raw: string,
  ): Promise<boolean> {
    const match = /^\/v1\/messages\/batches(?:\/([^/]+)(?:\/(results|cancel))?)?$/.exec(path);
    if (!match) return false;
    const [, id, action] = match;
    if (!req.headers["x-api-key"] && !req.headers.authorization) {
      sendError(res, 401, "x-api-key header is required");
      return true;
    }
    if (id === undefined) {
      if (req.method !== "POST")
        sendError(res, 405, `${req.method ?? "?"} ${path} is not served by the fake Messages API`);
      else create(req, res, raw);
      return true;
    }
    const batch = batches.find((b) => b.id === id);
    if (!batch) {
      sendError(res, 404, `message batch ${id} not found`);
      return true;
    }
    if (action === "cancel" && req.method === "POST") {
      if (batch.status !== "ended") {
        batch.cancelRequested = true;
        batch.status = "canceling";
      }
      await process(batch);
      send(res, 200, view(batch));
    } else if (action === "results" && req.method === "GET") {
      await process(batch);
      if (batch.status !== "ended") sendError(res, 404, `message batch ${id} has not ended yet`);
      else {
        const lines = batch.requests
          .map((r) =>
            JSON.stringify({ custom_id: r.custom_id, result: batch.results.get(r.custom_id) }),
          )
          .join("\n");
        send(res, 200, `${lines}\n`, { "content-type": "application/binary" });
      }
    } else if (action === undefined && req.method === "GET") {
      await process(batch);
      send(res, 200, view(batch));
    } else {
      sendError(res, 405, `${req.method ?? "?"} ${path} is not served by the fake Messages API`);
    }
    return true;
  }

  function create(req: IncomingMessage, res: ServerResponse, raw: string): void {
    let body: { requests?: unknown };
    try {
      body = JSON.parse(raw) as { requests?: unknown };
    } catch {
      return sendError(res, 400, "The request body is not valid JSON.");
    }
    const requests = body.requests;
    if (!Array.isArray(requests) || requests.length === 0)
      return sendError(res, 400, "requests: List should have at least 1 item");
    if (requests.length > MAX_REQUESTS)
      return sendError(res, 400, `requests: List should have at most ${MAX_REQUESTS} items`);
    const seen = new Set<string>();
    for (const [i, request] of (
      requests as Array<{ custom_id?: unknown; params?: unknown }>
    ).entries()) {
      if (typeof request.custom_id !== "string" || !CUSTOM_ID.test(request.custom_id))
        return sendError(
          res,
          400,
          `requests.${i}.custom_id: String should match pattern '^[a-zA-Z0-9_-]{1,64}$'`,
        );
      if (seen.has(request.custom_id))
        return sendError(res, 400, `requests: custom_id ${request.custom_id} is not unique`);
      seen.add(request.custom_id);
      if (typeof request.params !== "object" || request.params === null)
        return sendError(res, 400, `requests.${i}.params: Field required`);
    }
    // Unique across stand-ins, as the real ids are: tests share one database of stored batch ids.
    const id = `msgbatch_01fake${(++serial).toString(36).padStart(4, "0")}${randomBytes(8).toString("hex")}`;
    const batch: FakeBatch = {
      id,
      createdAt: Date.now(),
      status: "in_progress",
      cancelRequested: false,
      requests: requests as FakeBatch["requests"],
      results: new Map(),
    };
    batches.push(batch);
    headersOf.set(id, req.headers);
    send(res, 200, view(batch));
  }

  return {
    handle,
    batches,
    billed,
    release() {
      held = false;
    },
    expire() {
      expiring = true;
      void Promise.all(batches.map(process)).finally(() => {
        expiring = false;
      });
    },
  };
}
