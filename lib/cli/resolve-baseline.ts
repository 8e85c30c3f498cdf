import type { RunStore } from "../store/run-store";

/** The run `--baseline` names (`latest`: the suite's newest finished run other than this one), or why there is none. Its results are looked up as the run goes (result-pipeline.ts), never loaded whole. */
export async function resolveBaseline(
  store: RunStore,
  ref: string,
  suiteName: string,
  runId: string,
): Promise<{ runId: string } | string> {
  const run =
    ref === "latest"
      ? await store.latestRun({ suiteName, excludeRunId: runId })
      : await store.getRun(ref);
  if (!run)
    return ref === "latest"
      ? `no finished run of "${suiteName}" to compare with yet`
      : `no run with id ${ref}`;
  return { runId: run.id };
}
