import type { BatchLedger } from "../judge/batch-rounds";
import type { PrismaClient } from "./generated/client";

// A run's Message Batches, kept as they are submitted (`--batch`), so that
// `resume RUN_ID` after the process died, or a queued run's worker that takes
// over a dead worker's chunk, waits for a batch still running, or reads the
// results of one that ended, instead of paying for its requests again.

/** A batch stored this long before the newest one read may still be committing: read again. */
const COMMIT_MARGIN_MS = 60_000;

export function createBatchLedger(input: { prisma: PrismaClient; runId: string }): BatchLedger {
  const { prisma, runId } = input;
  // Each load returns the batches this ledger has not returned yet (a worker reads it as each
  // round of batches begins: a big run's ledger holds every custom_id of it).
  const returned = new Set<string>();
  let newest: Date | undefined;
  return {
    load: async () => {
      const since = newest && new Date(newest.getTime() - COMMIT_MARGIN_MS);
      const rows = await prisma.runBatch.findMany({
        where: {
          runId,
          ...(since ? { createdAt: { gte: since } } : {}),
          id: { notIn: [...returned] },
        },
        orderBy: { createdAt: "asc" },
      });
      for (const row of rows) {
        returned.add(row.id);
        if (!newest || row.createdAt > newest) newest = row.createdAt;
      }
      return rows.map((row) => ({ id: row.id, customIds: row.customIds }));
    },
    save: async (batch) => {
      await prisma.runBatch.create({
        data: { id: batch.id, runId, customIds: [...batch.customIds] },
      });
    },
  };
}
