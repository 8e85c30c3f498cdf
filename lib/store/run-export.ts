import { readStoredResult } from "../engine/results/stored-result";
import type { EvalResult } from "../engine/results/report";
import type { PrismaClient } from "./connection";
import { criterionNamesOf, keptFiguresOf } from "./run-figures";
import { UUID } from "./uuid";

// A whole run's results for an export (the run page's CSV download, `report RUN_ID`), in the
// suite's order (as the CLI's reports list them, not the order they finished in, which changes
// from run to run), read in keyset pages by (suite_order, id) (suite-order-key.ts; the index
// eval_results(run_id, suite_order, id)): each page is one index range read from where the last
// ended, so a run of a million results is never in memory at once, nor are its keys, and the
// thousandth page costs what the first does. The criterion names come first, from their own small
// query, so that a streamed file can name its columns before its rows.

export const EXPORT_PAGE_SIZE = 500;

export function createRunExport(prisma: PrismaClient) {
  return {
    async runExists(runId: string): Promise<boolean> {
      if (!UUID.test(runId)) return false;
      return (await prisma.run.count({ where: { id: runId } })) > 0;
    },

    /** How many results the run has stored. */
    async resultCount(runId: string): Promise<number> {
      if (!UUID.test(runId)) return 0;
      return prisma.evalResultRow.count({ where: { runId } });
    },

    /** Every criterion name of the run's results, once, sorted (the csv reporter's column order): kept by a finished run. */
    async criterionNames(runId: string): Promise<string[]> {
      if (!UUID.test(runId)) return [];
      return (await keptFiguresOf(prisma, runId))?.criteria ?? criterionNamesOf(prisma, runId);
    },

    /**
     * The run's results, `pageSize` at a time, in the suite's order; each read as this version
     * writes it (stored-result.ts). A page is read when the consumer asks for it.
     */
    async *resultPages(runId: string, pageSize = EXPORT_PAGE_SIZE): AsyncGenerator<EvalResult[]> {
      if (!UUID.test(runId)) return;
      const size = Math.max(1, Math.floor(pageSize));
      let after: { order: string; id: string } | undefined;
      for (;;) {
        const rows: { id: string; key: string; data: unknown }[] = after
          ? await prisma.$queryRaw`
              SELECT id::text AS id, suite_order AS key, data FROM eval_results
              WHERE run_id = ${runId}::uuid AND (suite_order, id) > (${after.order}, ${after.id}::uuid)
              ORDER BY suite_order, id LIMIT ${size}`
          : await prisma.$queryRaw`
              SELECT id::text AS id, suite_order AS key, data FROM eval_results
              WHERE run_id = ${runId}::uuid
              ORDER BY suite_order, id LIMIT ${size}`;
        if (rows.length === 0) return;
        const last = rows.at(-1)!;
        after = { order: last.key, id: last.id };
        yield rows.map((row) => readStoredResult(row.data as EvalResult));
        if (rows.length < size) return;
      }
    },
  };
}

export type RunExport = ReturnType<typeof createRunExport>;
