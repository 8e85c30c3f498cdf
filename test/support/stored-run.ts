import type { RunStore } from "../../lib/store/run-store";

/** A CLI run of `cells` cells of the suite `yaml`, stored under the suite `name`: its id. */
export async function createStoredRun(
  store: RunStore,
  input: { name: string; yaml: string; cells: number },
): Promise<string> {
  const version = await store.saveSuiteVersion({ name: input.name, yaml: input.yaml });
  return store.createRun({
    ...version,
    startedBy: "cli",
    config: {
      file: "suite.yaml",
      toolVersion: "0.1.0",
      judgeModel: "claude-sonnet-4-5",
      concurrency: 4,
      timeoutSeconds: 60,
    },
    totalCells: input.cells,
  });
}
