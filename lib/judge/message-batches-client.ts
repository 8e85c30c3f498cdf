import type Anthropic from "@anthropic-ai/sdk";
import { BaseAnthropic } from "@anthropic-ai/sdk/client";
import { Messages } from "@anthropic-ai/sdk/resources/messages";

// The batch port's adapter: the Message Batches API through the SDK's
// `messages.batches` (create, retrieve, results as JSONL). Transient HTTP
// trouble on these few requests is left to the SDK's own retries. The global
// fetch, not node-http-fetch.ts: results are a streamed JSONL body, and a
// batch is a handful of requests, not one per verdict.

export type BatchResult = Anthropic.Messages.MessageBatchResult;

export interface BatchView {
  id: string;
  status: "in_progress" | "canceling" | "ended";
  counts: {
    processing: number;
    succeeded: number;
    errored: number;
    canceled: number;
    expired: number;
  };
}

export interface BatchRequest {
  custom_id: string;
  params: Anthropic.MessageCreateParamsNonStreaming;
}

/** The port batch-judge.ts reaches the Message Batches API through (tests may pass their own). */
export interface BatchClient {
  /** A batch of requests, each already JSON (`batchRequestJson`): a round's are written once. */
  create(requests: readonly string[]): Promise<BatchView>;
  retrieve(batchId: string): Promise<BatchView>;
  /** Each result of an ended batch as its JSONL line is read, never the whole batch at once. */
  results(batchId: string): AsyncIterable<{ customId: string; result: BatchResult }>;
}

/** One request of a batch as the API reads it, in JSON. */
export function batchRequestJson(request: BatchRequest): string {
  return JSON.stringify(request);
}

export function createMessageBatchesClient(options: {
  apiKey: string;
  baseURL?: string;
  timeoutMs: number;
}): BatchClient {
  // The base client with the one resource used: the SDK's full client builds every
  // resource (beta, files, models, ...), and the CLI would load three times the code.
  const client = new BaseAnthropic({
    apiKey: options.apiKey,
    ...(options.baseURL === undefined ? {} : { baseURL: options.baseURL }),
    timeout: options.timeoutMs,
    maxRetries: 4,
    openTelemetry: false,
  });
  const messages = new Messages(client);
  const viewOf = (batch: Anthropic.Messages.MessageBatch): BatchView => ({
    id: batch.id,
    status: batch.processing_status,
    counts: { ...batch.request_counts },
  });
  return {
    // What `messages.batches.create` sends, with the requests written once: the SDK would write a
    // round's thousands of request objects again (a second copy of megabytes per round).
    create: async (requests) =>
      viewOf(
        await client.post<Anthropic.Messages.MessageBatch>("/v1/messages/batches", {
          body: `{"requests":[${requests.join(",")}]}`,
          headers: { "content-type": "application/json" },
        }),
      ),
    retrieve: async (batchId) => viewOf(await messages.batches.retrieve(batchId)),
    results: async function* (batchId) {
      for await (const line of await messages.batches.results(batchId))
        yield { customId: line.custom_id, result: line.result };
    },
  };
}
