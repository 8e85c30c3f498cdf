import { PgBoss } from "pg-boss";
import { parseDatabaseUrl } from "./connection";
import type { Database } from "./open-database";

// The job queue of distributed grading (pg-boss): its name and settings, how a
// process opens it (creating or raising the queue), and how a run's cells are
// put on it: a job is a chunk of cells (a few hundred judge calls: seconds of
// work, so a worker that dies loses little and two workers share a run
// evenly), enqueued from the lazy planner in bounded memory, its inserts
// batched. The workers that take the jobs are run-worker.ts.

export const GRADE_QUEUE = "rubric-studio-grade-cell";

/** A job's data: the run and the chunk of cells it grades. */
export interface ChunkJob {
  runId: string;
  /** The chunk's cells, in plan order. */
  cellIds: string[];
  /** The plan position of its first cell: where a worker's planner starts looking. */
  from: number;
}

/** What a job queued before chunks carries: one cell. */
interface OneCellJob {
  runId: string;
  cellId: string;
}

/** A job's chunk, whichever version queued it. */
export function chunkOf(data: ChunkJob | OneCellJob): ChunkJob {
  return "cellIds" in data ? data : { runId: data.runId, cellIds: [data.cellId], from: 0 };
}

/** How big a chunk is: it closes at either bound. */
export interface ChunkSize {
  cells: number;
  judgeCalls: number;
}

/** A few hundred judge calls: seconds of work at the concurrency a worker runs. */
export const CHUNK_SIZE: ChunkSize = { cells: 256, judgeCalls: 512 };
/** A batched run's job waits for its Message Batch anyway: bigger chunks, fewer rounds. */
export const BATCHED_CHUNK_SIZE: ChunkSize = { cells: 2_048, judgeCalls: 4_096 };
/** A run is split into at least this many jobs (when it has the cells), so that workers share even a small one. */
const MIN_JOBS = 8;

/** The chunk size of a run of `cells` cells and `judgeCalls` calls: `size`, smaller for a small run. */
export function chunkSizeFor(
  size: ChunkSize,
  plan: { cells: number; judgeCalls: number },
): ChunkSize {
  return {
    cells: Math.max(1, Math.min(size.cells, Math.ceil(plan.cells / MIN_JOBS))),
    judgeCalls: Math.max(1, Math.min(size.judgeCalls, Math.ceil(plan.judgeCalls / MIN_JOBS))),
  };
}

/** Jobs per insert statement. */
const INSERT_BATCH = 100;

export interface QueueTiming {
  /** A worker must signal life this often, or its jobs are retried elsewhere (pg-boss minimum 10). */
  heartbeatSeconds: number;
  /** How often pg-boss looks for jobs whose worker went quiet. */
  superviseIntervalSeconds: number;
}

export const DEFAULT_QUEUE_TIMING: QueueTiming = {
  heartbeatSeconds: 30,
  superviseIntervalSeconds: 15,
};

export async function openQueue(input: {
  db: Pick<Database, "url">;
  timing?: QueueTiming;
  poolSize?: number;
}): Promise<PgBoss> {
  const timing = input.timing ?? DEFAULT_QUEUE_TIMING;
  const boss = new PgBoss({
    ...parseDatabaseUrl(input.db.url),
    // Within the embedded server's connection limit, beside Prisma's pool.
    max: input.poolSize ?? 3,
    superviseIntervalSeconds: timing.superviseIntervalSeconds,
    monitorIntervalSeconds: Math.max(1, timing.superviseIntervalSeconds),
    schedule: false,
  });
  boss.on("error", (error: unknown) => console.error(`job queue: ${(error as Error).message}`));
  await boss.start();
  const queue = await boss.getQueue(GRADE_QUEUE);
  if (!queue) {
    await boss
      .createQueue(GRADE_QUEUE, {
        heartbeatSeconds: timing.heartbeatSeconds,
        retryLimit: RETRY_LIMIT,
        retryDelay: 1,
        expireInSeconds: JOB_EXPIRY_SECONDS,
      })
      .catch(async (error: unknown) => {
        // Two workers starting at once may both try to create it.
        if (!(await boss.getQueue(GRADE_QUEUE))) throw error;
      });
  } else if ((queue.expireInSeconds ?? 0) < JOB_EXPIRY_SECONDS) {
    // A queue made before batched runs expired its jobs after an hour.
    await boss.updateQueue(GRADE_QUEUE, { expireInSeconds: JOB_EXPIRY_SECONDS });
  }
  return boss;
}

/** Attempts after the first that a cell's job gets (a second apart) before its last one stores it as failed. */
export const RETRY_LIMIT = 5;

/**
 * How long a cell's job may stay active: a batched cell waits for its Message
 * Batch, which the API may take up to 24 hours to end; at an hour, pg-boss
 * failed the job and handed it to another worker five times over, then gave
 * up on the cell. 24 hours is pg-boss's ceiling: a batch that ends at its
 * 24th hour may see its job handed on once, and that worker reads the same
 * batch from the run's ledger (nothing is sent or paid again). A worker that
 * dies is found by its missed heartbeats (`heartbeatSeconds`), not by this.
 */
export const JOB_EXPIRY_SECONDS = 24 * 60 * 60;

type QueuedCell = { id: string; judgeCalls: number; at?: number };

/**
 * Queues the cells as chunks (`size`), read from `cells` as they are planned (a plan's cells are
 * never held: one chunk and one insert's jobs at a time). Returns how many cells and jobs.
 */
export async function enqueueChunks(input: {
  boss: PgBoss;
  runId: string;
  /** In plan order; `at` is a cell's plan position when some cells are left out (a regrade's). */
  cells: AsyncIterable<QueuedCell> | Iterable<QueuedCell>;
  size?: ChunkSize;
}): Promise<{ cells: number; jobs: number }> {
  const size = input.size ?? CHUNK_SIZE;
  let pending: { data: ChunkJob }[] = [];
  let chunk: ChunkJob = { runId: input.runId, cellIds: [], from: 0 };
  let calls = 0;
  let position = 0;
  let jobs = 0;
  const flush = async () => {
    if (pending.length === 0) return;
    await input.boss.insert(GRADE_QUEUE, pending);
    jobs += pending.length;
    pending = [];
  };
  const close = async () => {
    if (chunk.cellIds.length === 0) return;
    pending.push({ data: chunk });
    chunk = { runId: input.runId, cellIds: [], from: 0 };
    calls = 0;
    if (pending.length >= INSERT_BATCH) await flush();
  };
  for await (const cell of input.cells) {
    if (
      chunk.cellIds.length > 0 &&
      (chunk.cellIds.length >= size.cells || calls + cell.judgeCalls > size.judgeCalls)
    )
      await close();
    if (chunk.cellIds.length === 0) chunk.from = cell.at ?? position;
    chunk.cellIds.push(cell.id);
    calls += cell.judgeCalls;
    position++;
  }
  await close();
  await flush();
  return { cells: position, jobs };
}
