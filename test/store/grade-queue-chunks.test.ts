import type { PgBoss } from "pg-boss";
import { describe, expect, it } from "vitest";
import {
  CHUNK_SIZE,
  chunkOf,
  chunkSizeFor,
  enqueueChunks,
  GRADE_QUEUE,
  type ChunkJob,
} from "../../lib/store/grade-queue";
import { createPlanCursor } from "../../lib/store/plan-cursor";
import type { PlannedCell } from "../../lib/engine/grade/planned-cell";

// A run's cells go on the queue as chunks, read from the lazy planner as they
// come (never an array of the plan), inserted a hundred jobs a statement; a
// worker finds a chunk's cells by walking the plan forward.

/** A boss that records its inserts, and how many cells the planner had yielded at each. */
function recordingBoss(yielded: () => number) {
  const inserts: { jobs: ChunkJob[]; yieldedAt: number }[] = [];
  const boss = {
    insert: async (queue: string, jobs: { data: ChunkJob }[]) => {
      expect(queue).toBe(GRADE_QUEUE);
      inserts.push({ jobs: jobs.map((j) => j.data), yieldedAt: yielded() });
    },
  } as unknown as PgBoss;
  return { boss, inserts };
}

describe("enqueueChunks", () => {
  it("queues 100,000 cells as 391 chunks of at most 256, a hundred jobs an insert, while the plan is still being read", async () => {
    let yielded = 0;
    async function* cells() {
      for (let i = 0; i < 100_000; i++) {
        yielded++;
        yield { id: `c${i}`, judgeCalls: 1 };
      }
    }
    const { boss, inserts } = recordingBoss(() => yielded);
    const size = chunkSizeFor(CHUNK_SIZE, { cells: 100_000, judgeCalls: 100_000 });
    const queued = await enqueueChunks({ boss, runId: "r", cells: cells(), size });
    expect(queued).toEqual({ cells: 100_000, jobs: 391 });
    const jobs = inserts.flatMap((i) => i.jobs);
    expect(jobs).toHaveLength(391);
    expect(inserts.every((i) => i.jobs.length <= 100)).toBe(true);
    // The first insert went out after 100 chunks had been read, not after the whole plan.
    expect(inserts[0]!.yieldedAt).toBeLessThanOrEqual(100 * 256 + 1);
    expect(jobs.every((j) => j.cellIds.length <= 256)).toBe(true);
    // Every cell once, in order, each chunk saying where its first cell is in the plan.
    expect(jobs.flatMap((j) => j.cellIds)).toEqual(
      Array.from({ length: 100_000 }, (_, i) => `c${i}`),
    );
    expect(jobs.every((j) => j.cellIds[0] === `c${j.from}`)).toBe(true);
  });

  it("closes a chunk at its judge calls too, and splits a small run into at least 8 jobs", async () => {
    const { boss, inserts } = recordingBoss(() => 0);
    const cells = Array.from({ length: 50 }, (_, i) => ({ id: `e${i}`, judgeCalls: 4 }));
    const size = chunkSizeFor(CHUNK_SIZE, { cells: 50, judgeCalls: 200 });
    expect(size).toEqual({ cells: 7, judgeCalls: 25 });
    const queued = await enqueueChunks({ boss, runId: "r", cells, size });
    expect(queued.jobs).toBe(9);
    expect(inserts.flatMap((i) => i.jobs).every((j) => j.cellIds.length <= 6)).toBe(true);
  });

  it("reads a job queued before chunks (one cell) as a chunk of one", () => {
    expect(chunkOf({ runId: "r", cellId: "c1" } as never)).toEqual({
      runId: "r",
      cellIds: ["c1"],
      from: 0,
    });
  });
});

describe("createPlanCursor", () => {
  const cell = (i: number) => ({ id: `c${i}`, judgeCalls: 1 }) as PlannedCell;

  it("plans each cell once for chunks taken in order, and again from the top for one behind", async () => {
    let planned = 0;
    let walks = 0;
    const cursor = createPlanCursor(async function* () {
      walks++;
      for (let i = 0; i < 1_000; i++) {
        planned++;
        yield cell(i);
      }
    });
    const ids = (from: number, n: number) => Array.from({ length: n }, (_, i) => `c${from + i}`);
    // Two workers' worth of alternating chunks: this one takes every other.
    for (const from of [0, 200, 400, 600, 800])
      expect((await cursor.cells(from, ids(from, 100))).map((c) => c.id)).toEqual(ids(from, 100));
    expect(planned).toBe(900);
    expect(walks).toBe(1);
    // A retried chunk behind the cursor: a new walk from the top.
    expect((await cursor.cells(100, ids(100, 100))).map((c) => c.id)).toEqual(ids(100, 100));
    expect(walks).toBe(2);
    // A cell not in the plan is left out.
    expect((await cursor.cells(990, ["c995", "gone"])).map((c) => c.id)).toEqual(["c995"]);
    await cursor.close();
  });
});
