import type { EvalResult } from "../../lib/engine/results/report";
import type { PrismaClient } from "../../lib/store/connection";
import { createRunStore } from "../../lib/store/run-store";

// A run stored the way the CLI stores one (a suite version, a run, its results), for the store
// tests that read results back: a regrade's flips, the heatmap's cells.

export async function storeResults(input: {
  prisma: PrismaClient;
  results: readonly EvalResult[];
  /** The suite's name (default "stored-run") and text (default an empty suite). */
  suite?: { name: string; yaml: string };
  /** The run it re-graded, for a regrade. */
  regradeOf?: string;
}): Promise<string> {
  const store = createRunStore(input.prisma);
  const version = await store.saveSuiteVersion(
    input.suite ?? { name: "stored-run", yaml: "evals: []" },
  );
  const runId = await store.createRun({
    ...version,
    startedBy: "cli",
    config: {
      file: "suite.yaml",
      toolVersion: "test",
      judgeModel: "claude-sonnet-4-6",
      concurrency: 1,
      timeoutSeconds: 60,
      ...(input.regradeOf ? { regradeOf: input.regradeOf } : {}),
    },
    totalCells: input.results.length,
  });
  await store.saveResults(runId, input.results);
  return runId;
}
