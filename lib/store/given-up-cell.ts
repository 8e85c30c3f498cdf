import { loadSuite } from "../config/load-suite";
import type { SuiteConfig } from "../config/types";
import type { EvalResult } from "../engine/results/report";
import type { PriceOf } from "../engine/plan/explain-plan";
import { redactDeep } from "../engine/results/redact-secrets";
import type { PrismaClient } from "./generated/client";
import { cancelledResults, finishIfAllStored } from "./run-cancel";
import { createRunStore } from "./run-store";
import type { ComputeAgreement } from "./run-agreement";

// A queued chunk whose every attempt failed (its job threw each time, and
// pg-boss gave up on it) would leave its run "running" for ever, waiting for
// results that never come. Its last attempt stores each of its cells without
// a result as a judge error that says why, and the run finishes when nothing
// else is left.

/** Stores a given-up chunk's cells as judge errors with its cause; none that already has a result. */
export async function storeGivenUpCells(input: {
  prisma: PrismaClient;
  runId: string;
  cellIds: readonly string[];
  attempts: number;
  cause: string;
  priceOf: PriceOf;
  /** The run's suite as its worker read it (its dataset files); default: its stored text. */
  suite?: SuiteConfig;
  computeAgreement?: ComputeAgreement;
}): Promise<void> {
  const store = createRunStore(input.prisma);
  const run = await store.getRun(input.runId);
  if (!run) return;
  const loaded = input.suite
    ? { ok: true as const, value: input.suite }
    : loadSuite({ text: run.yaml, file: run.config.file });
  if (!loaded.ok) return;
  const stored = await input.prisma.evalResultRow.findMany({
    where: { runId: run.id, resultKey: { in: [...input.cellIds] } },
    select: { resultKey: true },
  });
  const done = new Set(stored.map((row) => row.resultKey));
  const cells = new Set(input.cellIds.filter((id) => !done.has(id)));
  if (cells.size === 0) return;
  // The engine's own results for the cells, with no call made; then what happened to them.
  const reason = `the worker could not grade this cell: ${input.attempts} attempts failed, the last with: ${input.cause}`;
  const failed = (await cancelledResults(run, loaded.value, cells)).map(
    ({ skipKind: _skipKind, ...rest }): EvalResult =>
      redactDeep({ ...rest, status: "judge_error", score: null, display: "judge_error", reason }),
  );
  await store.saveNewResults(run.id, failed);
  await finishIfAllStored({
    prisma: input.prisma,
    run,
    suite: loaded.value,
    priceOf: input.priceOf,
    ...(input.computeAgreement ? { computeAgreement: input.computeAgreement } : {}),
  });
}
