import { PgBoss } from "pg-boss";
import { parseDatabaseUrl } from "./connection";
import type { Database } from "./open-database";

// The job queue of distributed grading (pg-boss): its name and settings, how a
// process opens it (creating or raising the queue), and how a run's cells are
// put on it, one job per cell. The workers that take the jobs are run-worker.ts.

export const GRADE_QUEUE = "rubric-studio-grade-cell";

/** A job's data: the run and the one cell it grades. */
export interface CellJob {
  runId: string;
  cellId: string;
}

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

/** Queues one job per cell that has no stored result yet. Returns how many were queued. */
export async function enqueueCells(input: {
  boss: PgBoss;
  runId: string;
  cellIds: string[];
}): Promise<number> {
  if (input.cellIds.length === 0) return 0;
  await input.boss.insert(
    GRADE_QUEUE,
    input.cellIds.map((cellId) => ({ data: { runId: input.runId, cellId } satisfies CellJob })),
  );
  return input.cellIds.length;
}
