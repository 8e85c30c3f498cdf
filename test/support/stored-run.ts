import type { CellCoordinates, EvalResult } from "../../lib/engine/results/report";
import type { PrismaClient } from "../../lib/store/connection";
import { createRunStore, type RunStore } from "../../lib/store/run-store";
import { sampleResults } from "./sample-report";

// A run stored the way the CLI stores one (a suite version, a run, its results), for the store
// tests that read results back: a regrade's flips, the heatmap's cells, the writer's batches.

/** A CLI run of `cells` cells of the suite `yaml`, stored under the suite `name`: its id. */
export async function createStoredRun(
  store: RunStore,
  input: { name: string; yaml: string; cells: number; regradeOf?: string },
): Promise<string> {
  const version = await store.saveSuiteVersion({ name: input.name, yaml: input.yaml });
  return store.createRun({
    ...version,
    startedBy: "cli",
    config: {
      file: "suite.yaml",
      toolVersion: "test",
      judgeModel: "claude-sonnet-4-6",
      concurrency: 4,
      timeoutSeconds: 60,
      ...(input.regradeOf ? { regradeOf: input.regradeOf } : {}),
    },
    totalCells: input.cells,
  });
}

/** `results` stored as one run (the suite "stored-run" with an empty text unless given): its id. */
export async function storeResults(input: {
  prisma: PrismaClient;
  results: readonly EvalResult[];
  suite?: { name: string; yaml: string };
  /** The run it re-graded, for a regrade. */
  regradeOf?: string;
}): Promise<string> {
  const store = createRunStore(input.prisma);
  const runId = await createStoredRun(store, {
    ...(input.suite ?? { name: "stored-run", yaml: "evals: []" }),
    cells: input.results.length,
    ...(input.regradeOf ? { regradeOf: input.regradeOf } : {}),
  });
  await store.saveResults(runId, input.results);
  return runId;
}

/** A matrix or dataset cell of `evalName` as the engine names it ("sky [model=haiku, promptIndex=1]"), passed (0.9) or not (0.2). */
export function cellResult(input: {
  evalName: string;
  cell: CellCoordinates;
  status: EvalResult["status"];
}): EvalResult {
  const template = sampleResults().find((r) => r.status === "passed")!;
  const id = `${input.evalName} [${Object.entries(input.cell)
    .map(([k, v]) => `${k}=${v}`)
    .join(", ")}]`;
  return {
    ...template,
    id,
    name: id,
    eval: input.evalName,
    cell: input.cell,
    status: input.status,
    score: input.status === "passed" ? 0.9 : 0.2,
  };
}
