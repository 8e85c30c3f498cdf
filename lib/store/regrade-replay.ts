import type { SuiteConfig } from "../config/types";
import type { LivePort } from "../engine/ports/live-port";
import type { EvalResult } from "../engine/results/report";
import { readStoredResult } from "../engine/results/stored-result";
import { replayStoredCandidates, storedResponses } from "../engine/trust/regrade/regrade";
import { withJudge } from "../engine/trust/regrade/with-judge";
import type { PrismaClient } from "./connection";
import type { StoredRun } from "./run-store";

// How a worker grades a regrade run (regrade-run.ts queues it): the suite
// with the judge it was asked for, and the source run's stored candidates in
// place of any generation or agent call.

/**
 * A live port that answers each cell with `sourceRunId`'s stored candidate, read one row at a time
 * (a run's results are never held whole), and never calls a model or starts a server. Any grading
 * of a stored run's candidates can use it (a regrade run, a preview of unsaved suite text).
 */
export function storedCandidates(input: {
  prisma: PrismaClient;
  sourceRunId: string;
}): LivePort & { close(): Promise<void> } {
  const { prisma, sourceRunId } = input;
  return {
    run: async (request) => {
      const results = await storedResult({ prisma, sourceRunId, cellId: request.cellId });
      return replayStoredCandidates({ results, sourceRunId }).run(request);
    },
    close: async () => {},
  };
}

/** One stored result of a run, or none. */
async function storedResult(input: {
  prisma: PrismaClient;
  sourceRunId: string;
  cellId: string;
}): Promise<EvalResult[]> {
  const row = await input.prisma.evalResultRow.findUnique({
    where: { runId_resultKey: { runId: input.sourceRunId, resultKey: input.cellId } },
    select: { data: true },
  });
  return row ? [readStoredResult(row.data as unknown as EvalResult)] : [];
}

/** The fixed responses the source run graded for a chunk of cells, in one read. */
export async function storedResponsesOf(input: {
  prisma: PrismaClient;
  sourceRunId: string;
  cellIds: readonly string[];
}): Promise<ReadonlyMap<string, string>> {
  const rows = await input.prisma.evalResultRow.findMany({
    where: { runId: input.sourceRunId, resultKey: { in: [...input.cellIds] } },
    select: { data: true },
  });
  return storedResponses(rows.map((row) => readStoredResult(row.data as unknown as EvalResult)));
}

/**
 * A worker's view of a regrade run: its suite (with the judge it was asked for) and the source
 * run's stored candidates (`storedCandidates`). Undefined for any other run.
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
    live: storedCandidates({ prisma: input.prisma, sourceRunId }),
  };
}
