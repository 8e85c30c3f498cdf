import type { EvalResult } from "../engine/results/report";
import type { RunStore } from "./run-store";
import { saveResultOrCause } from "./unstored-result";

// A run's results written as they finish, in batches: whatever arrived while one batch was being
// written goes in the next (up to `batchSize` a statement, `saveResults`: one round trip), so a
// slow judge writes each result at once and a fast one writes hundreds a statement. The queue is
// bounded: `room()` resolves only while fewer than `maxQueued` wait, so a caller that waits for it
// before each judge call (lib/cli/store-results.ts) is slowed to the database's pace instead of
// holding a growing backlog. A batch the database refuses is written again one result at a time
// through `saveResultOrCause`, so only the result it refuses becomes a judge error that says why.
// Two batches are written at once (`inFlight`), each on its own connection: while the database
// inserts one, Node serialises the next, and a server on another core inserts both at once. A batch
// holding a result key that the batch in flight also writes waits for it, so the later result of a
// key is the one kept, and two statements never wait on each other's row.

export const RESULT_BATCH_SIZE = 500;
export const MAX_QUEUED_RESULTS = 5_000;
export const BATCHES_IN_FLIGHT = 2;

export interface StoredInstead {
  /** The result as graded. */
  result: EvalResult;
  /** The judge error stored in its place. */
  stored: EvalResult;
  reason: string;
}

export function createResultWriter(input: {
  store: Pick<RunStore, "saveResult" | "saveResults">;
  runId: string;
  /** A result the database refused, and the judge error stored in its place. */
  onRefused?: (refused: StoredInstead) => void;
  batchSize?: number;
  maxQueued?: number;
  /** Batches written at once (default 2). */
  inFlight?: number;
}) {
  const batchSize = input.batchSize ?? RESULT_BATCH_SIZE;
  const maxQueued = input.maxQueued ?? MAX_QUEUED_RESULTS;
  const parallel = Math.max(1, input.inFlight ?? BATCHES_IN_FLIGHT);
  const queue: EvalResult[] = [];
  let failure: { error: unknown } | undefined;
  let waiters: (() => void)[] = [];

  const wake = () => {
    if (queue.length >= maxQueued && !failure) return;
    const ready = waiters;
    waiters = [];
    for (const resolve of ready) resolve();
  };

  async function writeBatch(batch: EvalResult[]): Promise<void> {
    try {
      await input.store.saveResults(input.runId, batch);
    } catch {
      for (const result of batch) {
        const saved = await saveResultOrCause({ store: input.store, runId: input.runId, result });
        if (saved.refused)
          input.onRefused?.({ result, stored: saved.stored, reason: saved.refused });
      }
    }
  }

  // The batches being written, each with its result keys.
  const inFlight = new Map<Promise<void>, Set<string>>();
  let pumping = false;

  /** Starts batches while fewer than `parallel` are being written. */
  function pump(): void {
    pumping = false;
    while (!failure && queue.length > 0 && inFlight.size < parallel) {
      const next = queue.slice(0, batchSize);
      // A key the database is writing now: its later result waits for that batch to end.
      if ([...inFlight.values()].some((keys) => next.some((r) => keys.has(r.id)))) return;
      queue.splice(0, next.length);
      wake();
      const done: Promise<void> = writeBatch(next)
        .catch((error: unknown) => {
          // Not even the causes could be written: the database is gone. Later writes are
          // dropped, and settled() throws.
          failure ??= { error };
          queue.length = 0;
          wake();
        })
        .finally(() => {
          inFlight.delete(done);
          pump();
        });
      inFlight.set(done, new Set(next.map((r) => r.id)));
    }
  }

  return {
    /** Queues a graded result; it is written with the next batch. */
    write(result: EvalResult): void {
      if (failure) return;
      queue.push(result);
      // After what the caller queues in the same turn, so that it goes in one batch.
      if (!pumping) {
        pumping = true;
        queueMicrotask(pump);
      }
    },
    /** Resolves once fewer than `maxQueued` results wait to be written (at once when they do). */
    room(): Promise<void> {
      if (queue.length < maxQueued || failure) return Promise.resolve();
      return new Promise((resolve) => waiters.push(resolve));
    },
    /** Results waiting to be written (not counting the batches being written). */
    get queued(): number {
      return queue.length;
    },
    /** Waits until every queued result is written; throws when one could not be stored at all. */
    async settled(): Promise<void> {
      while (inFlight.size > 0 || (queue.length > 0 && !failure)) {
        if (inFlight.size === 0) pump();
        await Promise.race(inFlight.keys());
      }
      if (failure) throw failure.error;
    },
  };
}

export type ResultWriter = ReturnType<typeof createResultWriter>;
