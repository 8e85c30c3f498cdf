import { loadSuite } from "../config/load-suite";
import type { EvalResult } from "../engine/results/report";
import type { PriceOf } from "../engine/plan/explain-plan";
import { redactDeep } from "../engine/results/redact-secrets";
import type { PrismaClient } from "./generated/client";
import { cancelledResults, finishIfAllStored } from "./run-cancel";
import { createRunStore } from "./run-store";

// A queued cell whose every attempt failed (its job threw each time, and
// pg-boss gave up on it) would leave its run "running" for ever, waiting for
// a result that never comes. Its last attempt stores it as a judge error that
// says why, and the run finishes when nothing else is left.

/** Stores a given-up cell as a judge error with its cause; nothing if it already has a result. */
export async function storeGivenUpCell(input: {
  prisma: PrismaClient;
  runId: string;
  cellId: string;
  attempts: number;
  cause: string;
  priceOf: PriceOf;
}): Promise<void> {
  const store = createRunStore(input.prisma);
  const run = await store.getRun(input.runId);
  if (!run) return;
  const loaded = loadSuite({ text: run.yaml, file: run.config.file });
  if (!loaded.ok || (await store.resultKeys(run.id)).has(input.cellId)) return;
  // The engine's own result for the cell, with no call made; then what happened to it.
  const [shell] = await cancelledResults(run, loaded.value, new Set([input.cellId]));
  if (!shell) return;
  const { skipKind: _skipKind, ...rest } = shell;
  const reason = `the worker could not grade this cell: ${input.attempts} attempts failed, the last with: ${input.cause}`;
  const failed: EvalResult = {
    ...rest,
    status: "judge_error",
    score: null,
    display: "judge_error",
    reason,
  };
  await store.saveNewResults(run.id, [redactDeep(failed)]);
  await finishIfAllStored({ store, run, suite: loaded.value, priceOf: input.priceOf });
}
