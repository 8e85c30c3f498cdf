import type { BatchClient, BatchResult, BatchView } from "./message-batches-client";

// Following one Message Batch to its end (batch-rounds.ts submits them): its
// status polled every `pollMs` (progress reported each time), then its results
// read line by line, each handed to the waiter of its custom_id as it is read,
// so a batch's results (up to 100,000 replies) are never all held at once. A
// request the batch ended without, or a batch that cannot be followed, is an
// errored result, as the API reports a request that failed inside a batch, so
// the judge treats them alike (retried once).

/** Looks in a row that may fail before the batch's waiters are told it could not be followed. */
const MAX_POLL_FAILURES = 5;

export function erroredResult(message: string): BatchResult {
  return {
    type: "errored",
    error: { type: "error", error: { type: "api_error", message }, request_id: null },
  };
}

/**
 * Polls `batchId` until it ends (or `signal` aborts: then nothing is settled, a resume adopts the
 * batch), then settles each of `customIds` (taken from the set as settled) with its result.
 * `done` is called once the batch is no longer followed, before its results are read.
 */
export async function followBatch(input: {
  client: BatchClient;
  batchId: string;
  /** The custom_ids waited for in this batch. */
  customIds: Set<string>;
  pollMs: number;
  signal?: AbortSignal;
  onView?: (view: BatchView) => void;
  settle: (customId: string, result: BatchResult) => void;
  done: () => void;
}): Promise<void> {
  const { client, batchId, customIds, signal } = input;
  let failures = 0;
  let problem = "";
  for (;;) {
    if (signal?.aborted) return input.done();
    try {
      const view = await client.retrieve(batchId);
      failures = 0;
      input.onView?.(view);
      if (view.status === "ended") break;
    } catch (error) {
      problem = (error as Error).message;
      if (++failures >= MAX_POLL_FAILURES) {
        input.done();
        const result = erroredResult(`could not follow message batch ${batchId}: ${problem}`);
        for (const customId of customIds) input.settle(customId, result);
        return;
      }
    }
    await sleep(input.pollMs, signal);
  }
  input.done();
  try {
    for await (const { customId, result } of client.results(batchId))
      if (customIds.delete(customId)) input.settle(customId, result);
  } catch (error) {
    problem = `could not read the results of message batch ${batchId}: ${(error as Error).message}`;
  }
  const missing = erroredResult(
    problem || `message batch ${batchId} ended without a result for this request`,
  );
  for (const customId of customIds) input.settle(customId, missing);
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
    signal?.addEventListener("abort", done, { once: true });
  });
}
