import type { EvalResult } from "../engine/results/report";
import type { PrismaClient } from "./connection";

// A whole run's results for an export (the run page's CSV download), read
// page by page so that a run of 10,000 results is never in memory at once:
// keyset pages in the order the results were stored (then by result key), each row's EvalResult as
// saved. The criterion names come first, from their own small query, so that
// a streamed file can name its columns before its rows.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const EXPORT_PAGE_SIZE = 500;

export function createRunExport(prisma: PrismaClient) {
  return {
    async runExists(runId: string): Promise<boolean> {
      if (!UUID.test(runId)) return false;
      return (await prisma.run.count({ where: { id: runId } })) > 0;
    },

    /** Every criterion name of the run's results, once, sorted (the csv reporter's column order). */
    async criterionNames(runId: string): Promise<string[]> {
      if (!UUID.test(runId)) return [];
      const rows = await prisma.$queryRaw<
        { name: string }[]
      >`SELECT DISTINCT name FROM criterion_results WHERE run_id = ${runId}::uuid ORDER BY name`;
      return rows.map((row) => row.name).sort();
    },

    /** The run's results, `pageSize` at a time, in stored order. */
    async *resultPages(runId: string, pageSize = EXPORT_PAGE_SIZE): AsyncGenerator<EvalResult[]> {
      if (!UUID.test(runId)) return;
      // Results stored together share a timestamp; their keys order them, and (run, key) is unique.
      let after: { createdAt: Date; resultKey: string } | undefined;
      for (;;) {
        const rows = await prisma.evalResultRow.findMany({
          where: {
            runId,
            ...(after
              ? {
                  OR: [
                    { createdAt: { gt: after.createdAt } },
                    { createdAt: after.createdAt, resultKey: { gt: after.resultKey } },
                  ],
                }
              : {}),
          },
          orderBy: [{ createdAt: "asc" }, { resultKey: "asc" }],
          take: pageSize,
          select: { resultKey: true, createdAt: true, data: true },
        });
        if (rows.length === 0) return;
        yield rows.map((row) => row.data as unknown as EvalResult);
        if (rows.length < pageSize) return;
        const last = rows.at(-1)!;
        after = { createdAt: last.createdAt, resultKey: last.resultKey };
      }
    },
  };
}

export type RunExport = ReturnType<typeof createRunExport>;
