import type { JudgePort } from "../engine/ports/judge-port";
import {
  batchRequestJson,
  type BatchClient,
  type BatchRequest,
  type BatchResult,
  type BatchView,
} from "./message-batches-client";
import { erroredResult, followBatch } from "./batch-follow";

// Rounds of Message Batches: every request that arrives while the run has
// nothing else to do is gathered into one round, submitted as one batch or
// more (at most 100,000 requests and 256 MB each), and polled until it ends;
// each waiter gets its own result by custom_id. What a result leads to (a tree's next level, a repair, the retry
// of an errored request) arrives later and makes the next round. As a round
// closes, the ledger is asked which stored batches hold any of its custom_ids
// (an earlier process of the run, or another worker of a queued run): such a
// request waits for that batch instead of being submitted again, so nothing is
// paid twice. Only the round's ids are asked about, and a batch's ids are
// forgotten once it has been followed, so memory does not grow with the run.
// A round closes once every judge call in progress waits in it (`outstanding`,
// counted around the whole judge, judge cache included: a call still looking
// up the cache, or writing a verdict it was given before asking for the next
// tree level, holds the round open), or after `gatherMs` without a new request.

export interface StoredBatch {
  id: string;
  customIds: readonly string[];
}

/** A stored batch that holds some of the custom_ids asked about: those, and how many it holds in all. */
export interface FoundBatch {
  id: string;
  size: number;
  customIds: string[];
}

/** Where a run's batch ids are kept (lib/store), so that `resume` can pick up a batch still running. */
export interface BatchLedger {
  /** The stored batches that hold any of these custom_ids (an id in two: only the newest says it). */
  find(customIds: readonly string[]): Promise<FoundBatch[]>;
  save(batch: StoredBatch): Promise<void>;
}

export interface BatchProgress extends BatchView {
  submitted: number;
}

export interface BatchRoundsOptions {
  client: BatchClient;
  /** How long to wait between looks at a batch in progress. */
  pollMs: number;
  /**
   * Judge calls in progress in the whole judge (countOutstanding); without it, a round closes after
   * `gatherMs` of quiet.
   */
  outstanding?: () => number;
  /**
   * The longest quiet period a round waits for calls still in progress (default 30 s: a call may
   * wait on another worker's claim; 100 ms without `outstanding`).
   */
  gatherMs?: number;
  ledger?: BatchLedger;
  onProgress?: (progress: BatchProgress) => void;
  /** Something the run should warn about (a batch id that could not be stored). */
  onProblem?: (message: string) => void;
  /** The API's limits per batch; smaller in tests. */
  limits?: { requests: number; bytes: number };
  /** Stops the polling (the run is over). */
  signal?: AbortSignal;
}

export type Settled = { batchId: string; result: BatchResult };

/** A request of the round being gathered, already JSON: its params are not kept. */
type Pending = { customId: string; json: string; bytes: number };

const LIMITS = { requests: 100_000, bytes: 256 * 1024 * 1024 };
/** How often a round being gathered looks whether it can close. */
const QUIET_MS = 20;

export interface BatchRounds {
  submit(customId: string, params: BatchRequest["params"]): Promise<Settled>;
}

/**
 * Counts the calls in progress through a judge (the outermost one, around the
 * judge cache), for `outstanding`.
 */
export function countOutstanding(): {
  outstanding: () => number;
  around: <J extends JudgePort>(judge: J) => J;
} {
  let inProgress = 0;
  return {
    outstanding: () => inProgress,
    around: (judge) =>
      ({
        ...judge,
        grade: async (
          request: Parameters<JudgePort["grade"]>[0],
          context: Parameters<JudgePort["grade"]>[1],
        ) => {
          inProgress++;
          try {
            return await judge.grade(request, context);
          } finally {
            inProgress--;
          }
        },
      }) as typeof judge,
  };
}

export function createBatchRounds(options: BatchRoundsOptions): BatchRounds {
  const { client, pollMs, ledger, onProgress, signal } = options;
  const gatherMs = options.gatherMs ?? (options.outstanding ? 30_000 : 100);
  const limits = options.limits ?? LIMITS;
  const waiters = new Map<string, ((settled: Settled) => void)[]>();
  /** The batches followed now: the custom_ids waited for in each (all of its own), and its size. */
  const followed = new Map<string, { customIds: Set<string>; size: number }>();
  let pending: Pending[] = [];
  let timer: NodeJS.Timeout | undefined;
  let lastArrival = 0;
  /** Calls waiting in submit(), in a round being gathered or in a batch. */
  let waiting = 0;

  const settle = (customId: string, settled: Settled) => {
    const resolvers = waiters.get(customId) ?? [];
    waiters.delete(customId);
    for (const resolve of resolvers) resolve(settled);
  };

  // The ledger is asked as each round closes, about that round's ids: a queued run's other workers
  // store batches while this one runs, and a chunk of one that died comes back here, its requests
  // in a batch this process did not submit. Those wait for that batch; the rest are submitted.
  async function adopt(round: Pending[]): Promise<Pending[]> {
    if (!ledger) return round;
    let found: FoundBatch[];
    try {
      found = await ledger.find(round.map((entry) => entry.customId));
    } catch (error) {
      options.onProblem?.(
        `the run's stored message batches could not be read, so this round's requests are submitted again: ${(error as Error).message}`,
      );
      return round;
    }
    if (found.length === 0) return round;
    const taken = new Set<string>();
    for (const batch of found) {
      const entry = followed.get(batch.id) ?? { customIds: new Set<string>(), size: batch.size };
      for (const customId of batch.customIds) {
        if (taken.has(customId)) continue;
        taken.add(customId);
        entry.customIds.add(customId);
      }
      followed.set(batch.id, entry);
      watch(batch.id);
    }
    return round.filter((entry) => !taken.has(entry.customId));
  }

  async function submit(customId: string, params: BatchRequest["params"]): Promise<Settled> {
    waiting++;
    try {
      return await enter(customId, params);
    } finally {
      waiting--;
    }
  }

  // Checked after each macrotask boundary, so that what a settled call leads to (its next request) has arrived.
  function check(): void {
    timer = undefined;
    // An interrupted run submits nothing more: its calls have stopped waiting (batch-judge.ts).
    if (signal?.aborted) pending = [];
    if (pending.length === 0) return;
    const quiet = Date.now() - lastArrival;
    if (
      (options.outstanding && options.outstanding() <= waiting && quiet >= QUIET_MS) ||
      quiet >= gatherMs
    )
      void flush();
    else timer = setTimeout(check, QUIET_MS);
  }

  function enter(customId: string, params: BatchRequest["params"]): Promise<Settled> {
    return new Promise<Settled>((resolve) => {
      const resolvers = waiters.get(customId);
      // The same request twice (no judge cache to merge them), in one round or while its batch
      // runs: one custom_id, two waiters.
      if (resolvers) return void resolvers.push(resolve);
      waiters.set(customId, [resolve]);
      const json = batchRequestJson({ custom_id: customId, params });
      pending.push({ customId, json, bytes: Buffer.byteLength(json) + 2 });
      lastArrival = Date.now();
      timer ??= setTimeout(check, QUIET_MS);
    });
  }

  async function flush(): Promise<void> {
    const gathered = pending;
    pending = [];
    const round = await adopt(gathered);
    for (const chunk of chunksOf(round, limits)) {
      const customIds = chunk.map((entry) => entry.customId);
      let view;
      try {
        view = await client.create(chunk.map((entry) => entry.json));
      } catch (error) {
        const result = erroredResult(
          `could not submit a message batch: ${(error as Error).message}`,
        );
        for (const customId of customIds) settle(customId, { batchId: "", result });
        continue;
      }
      followed.set(view.id, { customIds: new Set(customIds), size: customIds.length });
      onProgress?.({ ...view, submitted: customIds.length });
      watch(view.id);
      // The batch runs whether or not its id could be kept: its results are still waited for here,
      // and only a resume would miss it.
      await ledger?.save({ id: view.id, customIds }).catch((error: unknown) => {
        options.onProblem?.(
          `message batch ${view.id} could not be stored with the run, so \`resume\` would not find it: ${(error as Error).message}`,
        );
      });
    }
  }

  const polling = new Set<string>();
  function watch(batchId: string): void {
    if (polling.has(batchId)) return;
    polling.add(batchId);
    void poll(batchId);
  }

  function poll(batchId: string): Promise<void> {
    const entry = followed.get(batchId) ?? { customIds: new Set<string>(), size: 0 };
    return followBatch({
      client,
      batchId,
      customIds: entry.customIds,
      pollMs,
      ...(signal ? { signal } : {}),
      onView: (view) => onProgress?.({ ...view, submitted: entry.size }),
      settle: (customId, result) => settle(customId, { batchId, result }),
      // Once followed, the batch's ids are forgotten: a request of it that a later round adopts
      // (found in the ledger) follows it again, from here on, and reads its results again.
      done: () => {
        followed.delete(batchId);
        polling.delete(batchId);
      },
    });
  }

  return { submit };
}

function chunksOf<T extends { bytes: number }>(
  entries: T[],
  limits: { requests: number; bytes: number },
): T[][] {
  const chunks: T[][] = [];
  let chunk: T[] = [];
  let bytes = 0;
  for (const entry of entries) {
    if (
      chunk.length > 0 &&
      (chunk.length >= limits.requests || bytes + entry.bytes > limits.bytes)
    ) {
      chunks.push(chunk);
      chunk = [];
      bytes = 0;
    }
    chunk.push(entry);
    bytes += entry.bytes;
  }
  if (chunk.length > 0) chunks.push(chunk);
  return chunks;
}
