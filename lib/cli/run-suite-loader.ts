import path from "node:path";
import { loadSuite } from "../config/load-suite";
import type { LoadResult } from "../config/types";
import type { Settings } from "../env/read-env";
import type { StoredRun } from "../store/run-store";
import { fileLimits } from "./file-limits";
import { readSuiteAttachments } from "./read-suite-file";

// How a worker reads a queued run's suite (lib/store/worker-run-context.ts's
// `suiteOf`): a run queued by the CLI (`eval --queue`) as the CLI read it, a
// file's bounds (file-limits.ts) and its documents and dataset files read
// again from where it was queued, JSONL and CSV datasets as streams (read as
// the cells are planned, never held); a dashboard run (and a regrade, which the
// dashboard queues) as the dashboard planned it, the browser's bounds, no file read.

export function runSuiteLoader(
  settings: Pick<Settings, "maxCells" | "maxJudgeCalls">,
): (run: StoredRun) => Promise<LoadResult> {
  return async (run) => {
    const cwd = run.config.cwd;
    if (run.startedBy !== "cli" || cwd === undefined)
      return loadSuite({ text: run.yaml, file: run.config.file });
    const limits = fileLimits(settings);
    const loaded = loadSuite({ text: run.yaml, file: run.config.file, limits });
    if (!loaded.ok) return loaded;
    const read = await readSuiteAttachments({
      suite: loaded.value,
      suitePath: path.resolve(cwd, run.config.file),
      limits,
      stream: true,
    });
    return read.ok ? { ...loaded, value: read.value } : read;
  };
}
