import type { EvalResult } from "../engine/results/report";
import { readStoredResult } from "../engine/results/stored-result";
import type { PrismaClient } from "./generated/client";
import { storableDeep } from "./storable";
import { criterionRowsOf, rowOf } from "./result-rows";
import { saveResultBatch } from "./result-batch";

// A run's results, part of the run store (run-store.ts). A result is written the moment it is
// graded (upsert on run + result key), so a crash loses at most the calls in flight and a rerun of
// the same cell never duplicates a row. Read back whole (`results`) only where a run is rendered
// whole (a small run's `report`, the editor's flips preview); big ones are read in pages
// (run-export.ts, stored-verdicts.ts) or in SQL (run-queries.ts, run-comparison.ts).

// A busy run shares a small pool with the judge cache: wait for a connection
// rather than fail the write.
const TRANSACTION_OPTIONS = { maxWait: 30_000, timeout: 30_000 };

export function createRunResults(prisma: PrismaClient) {
  return {
    /** Writes one graded result and its criteria; idempotent on (run, result key). What a model wrote is made storable (storable.ts). */
    async saveResult(runId: string, graded: EvalResult): Promise<void> {
      const result = storableDeep(graded);
      const row = rowOf(result);
      await prisma.$transaction(async (tx) => {
        const saved = await tx.evalResultRow.upsert({
          where: { runId_resultKey: { runId, resultKey: result.id } },
          create: { runId, resultKey: result.id, ...row },
          update: row,
        });
        await tx.criterionResultRow.deleteMany({ where: { evalResultId: saved.id } });
        if (result.criteria.length)
          await tx.criterionResultRow.createMany({
            data: criterionRowsOf(runId, saved.id, result),
          });
      }, TRANSACTION_OPTIONS);
    },

    /**
     * Writes many graded results in one statement (result-batch.ts), as `saveResult` writes one:
     * upserted on (run, result key), criteria replaced. Throws when the database refuses any.
     */
    async saveResults(runId: string, graded: readonly EvalResult[]): Promise<void> {
      await saveResultBatch(prisma, { runId, results: graded });
    },

    /**
     * Writes many results at once, those not stored yet (a cancel's skipped cells): one insert for
     * the results, one for their criteria. Returns how many it wrote.
     */
    async saveNewResults(runId: string, graded: readonly EvalResult[]): Promise<number> {
      if (graded.length === 0) return 0;
      const results = graded.map((r) => storableDeep(r));
      return prisma.$transaction(async (tx) => {
        const saved = await tx.evalResultRow.createManyAndReturn({
          data: results.map((result) => ({ runId, resultKey: result.id, ...rowOf(result) })),
          skipDuplicates: true,
          select: { id: true, resultKey: true },
        });
        const byKey = new Map(results.map((r) => [r.id, r]));
        const criteria = saved.flatMap((row) =>
          criterionRowsOf(runId, row.id, byKey.get(row.resultKey)!),
        );
        if (criteria.length) await tx.criterionResultRow.createMany({ data: criteria });
        return saved.length;
      }, TRANSACTION_OPTIONS);
    },

    async results(runId: string): Promise<EvalResult[]> {
      const rows = await prisma.evalResultRow.findMany({
        where: { runId },
        orderBy: { createdAt: "asc" },
        select: { data: true },
      });
      // A result stored by an earlier version is read as this one writes it.
      return rows.map((r) => readStoredResult(r.data as unknown as EvalResult));
    },

    async resultKeys(runId: string): Promise<Set<string>> {
      const rows = await prisma.evalResultRow.findMany({
        where: { runId },
        select: { resultKey: true },
      });
      return new Set(rows.map((r) => r.resultKey));
    },
  };
}
