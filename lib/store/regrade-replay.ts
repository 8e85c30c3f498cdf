import type { SuiteConfig } from "../config/types";
import type { LivePort } from "../engine/ports/live-port";
import type { EvalResult } from "../engine/results/report";
import { readStoredResult } from "../engine/results/stored-result";
import { replayStoredCandidates } from "../engine/trust/regrade/regrade";
import { withJudge } from "../engine/trust/regrade/with-judge";
import type { PrismaClient } from "./connection";
import type { StoredRun } from "./run-store";

// How a worker grades a regrade run (regrade-run.ts queues it): the suite
// with the judge it was asked for, and the source run's stored candidates in
// place of any generation or agent call.

/**
 * A worker's view of a regrade run: its suite (with the judge it was asked for) and a live port
 * that answers each cell with the source run's stored candidate, read one cell at a time (a run's
 * results are never held whole). Undefined for any other run.
 */
export function regradeReplay(input: {
  prisma: PrismaClient;
  run: StoredRun;
  suite: SuiteConfig;
}): { suite: SuiteConfig; live: LivePort & { close(): Promise<void> } } | undefined {
  const sourceRunId = input.run.regradeOf;
  if (!sourceRunId) return undefined;
  const judge = input.run.config.regradeJudge;
  return {
    suite: judge ? withJudge(input.suite, judge) : input.suite,
    live: {
      run: async (request) => {
        const row = await input.prisma.evalResultRow.findUnique({
          where: { runId_resultKey: { runId: sourceRunId, resultKey: request.cellId } },
          select: { data: true },
        });
        const results = row ? [readStoredResult(row.data as unknown as EvalResult)] : [];
        return replayStoredCandidates({ results, sourceRunId }).run(request);
      },
      close: async () => {},
    },
  };
}
