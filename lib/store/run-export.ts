import { inSuiteOrder } from "../engine/results/suite-order";
import type { EvalResult } from "../engine/results/report";
import type { PrismaClient } from "./connection";

// A whole run's results for an export (the run page's CSV download), in the
// suite's order (as the CLI's reports list them, not the order they finished
// in, which changes from run to run), read page by page so that a run of
// 10,000 results is never in memory at once: first every result's key and
// what orders it (the eval's line and column, the matrix cell, the name:
// small), then each page's EvalResults as saved, by key. The criterion names
// come first, from their own small query, so that a streamed file can name its
// columns before its rows.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const EXPORT_PAGE_SIZE = 500;

interface OrderRow {
  key: string;
  name: string;
  line: number | null;
  column: number | null;
  prompt: number | null;
}

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

    /** The run's results, `pageSize` at a time, in the suite's order (`inSuiteOrder`). */
    async *resultPages(runId: string, pageSize = EXPORT_PAGE_SIZE): AsyncGenerator<EvalResult[]> {
      if (!UUID.test(runId)) return;
      const order = await prisma.$queryRaw<OrderRow[]>`
        SELECT result_key AS key, name,
          (data->'location'->>'line')::int AS line,
          (data->'location'->>'column')::int AS column,
          (data->'cell'->>'promptIndex')::int AS prompt
        FROM eval_results WHERE run_id = ${runId}::uuid ORDER BY created_at, result_key`;
      const keys = inSuiteOrder(
        order.map((row) => ({
          key: row.key,
          name: row.name,
          ...(row.line !== null
            ? { location: { file: "", line: row.line, column: row.column ?? 0 } }
            : {}),
          cell: row.prompt !== null ? { promptIndex: row.prompt } : null,
        })),
      ).map((row) => row.key);
      for (let start = 0; start < keys.length; start += pageSize) {
        const page = keys.slice(start, start + pageSize);
        const rows = await prisma.evalResultRow.findMany({
          where: { runId, resultKey: { in: page } },
          select: { resultKey: true, data: true },
        });
        const byKey = new Map(
          rows.map((row) => [row.resultKey, row.data as unknown as EvalResult]),
        );
        yield page.flatMap((key) => {
          const result = byKey.get(key);
          return result ? [result] : [];
        });
      }
    },
  };
}

export type RunExport = ReturnType<typeof createRunExport>;
