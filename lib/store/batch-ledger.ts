import type { BatchLedger } from "../judge/batch-rounds";
import type { PrismaClient } from "./generated/client";

// A run's Message Batches, kept as they are submitted (`--batch`), so that
// `resume RUN_ID` after the process died waits for a batch still running, or
// reads the results of one that ended, instead of paying for its requests again.

export function createBatchLedger(input: { prisma: PrismaClient; runId: string }): BatchLedger {
  const { prisma, runId } = input;
  return {
    load: async () =>
      (await prisma.runBatch.findMany({ where: { runId }, orderBy: { createdAt: "asc" } })).map(
        (row) => ({ id: row.id, customIds: row.customIds }),
      ),
    save: async (batch) => {
      await prisma.runBatch.create({
        data: { id: batch.id, runId, customIds: [...batch.customIds] },
      });
    },
  };
}
