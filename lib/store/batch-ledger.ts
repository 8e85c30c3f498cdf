import type { BatchLedger, FoundBatch } from "../judge/batch-rounds";
import { queryDirect } from "./connection";
import type { PrismaClient } from "./generated/client";

// A run's Message Batches, kept as they are submitted (`--batch`), so that
// `resume RUN_ID` after the process died, or a queued run's worker that takes
// over a dead worker's chunk, waits for a batch still running, or reads the
// results of one that ended, instead of paying for its requests again.

// Asked as each round of batches closes, about that round's custom_ids only (a few thousand in a
// queued run's round; a process kept every id of the run before: 50 to 60 MB at 300,000 calls).
// The ids asked about are joined by hash to the run's stored ids: `custom_ids && $2`, a nested
// loop over both arrays in Postgres, would compare thousands by thousands per stored batch.
const FIND = `
    SELECT DISTINCT ON (c.custom_id) b.id, cardinality(b.custom_ids) AS size,
      c.custom_id AS "customId"
    FROM run_batches b
    CROSS JOIN LATERAL unnest(b.custom_ids) AS c(custom_id)
    JOIN unnest($2::text[]) AS asked(custom_id) ON asked.custom_id = c.custom_id
    WHERE b.run_id = $1::uuid
    ORDER BY c.custom_id, b.created_at DESC`;

const SAVE = `INSERT INTO run_batches (id, run_id, custom_ids) VALUES ($1, $2::uuid, $3::text[])`;

export function createBatchLedger(input: { prisma: PrismaClient; runId: string }): BatchLedger {
  const { prisma, runId } = input;
  return {
    find: async (customIds) => {
      if (customIds.length === 0) return [];
      const rows = await queryDirect<{ id: string; size: number; customId: string }>(prisma, FIND, [
        runId,
        customIds,
      ]);
      const batches = new Map<string, FoundBatch>();
      for (const row of rows) {
        const batch = batches.get(row.id) ?? { id: row.id, size: Number(row.size), customIds: [] };
        batch.customIds.push(row.customId);
        batches.set(row.id, batch);
      }
      return [...batches.values()];
    },
    // Straight to the pool too: through Prisma, a batch's thousands of ids were written as JSON and read back.
    save: async (batch) => {
      await queryDirect(prisma, SAVE, [batch.id, runId, batch.customIds]);
    },
  };
}
