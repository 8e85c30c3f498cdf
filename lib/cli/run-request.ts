import type { SuiteConfig } from "../config/types";
import type { LivePort } from "../engine/ports/live-port";
import type { BaselineComparison } from "../engine/results/report";
import type { ReporterName } from "../report/registry";
import type { Settings } from "../env/read-env";
import type { RunConfig } from "../store/run-store";
import type { CliIo } from "./cli-io";
import type { Database } from "../store/open-database";

// What one run from the command line is asked for (`eval`, `resume`, `regrade`), and the run
// history it loads only when asked: execute-run.ts runs it.

export interface RunRequest {
  suite: SuiteConfig;
  settings: Settings;
  config: RunConfig;
  io: CliIo;
  reporters: ReporterName[];
  output?: string;
  color: boolean;
  filter?: RegExp;
  /** Keep history: DATABASE_URL, or the embedded database with --store. */
  store: boolean;
  /** A new run (the suite's YAML and name), or the stored run to resume. */
  target: { kind: "new"; suiteName: string; yaml: string } | { kind: "resume"; runId: string };
  baseline?: { ref: string; maxDrop: number };
  /** `regrade`: the stored run whose candidates are graded again (through `live`, a replay), only its cells, no agent call. */
  regrade?: {
    sourceRunId: string;
    live: LivePort;
    cells: ReadonlySet<string>;
    /** The fixed responses the source graded, by result id (graded instead of the suite's text). */
    responses: ReadonlyMap<string, string>;
    /** The changed results' keys in the flips page's order, once the new run is stored. */
    flipOrder(runId: string): Promise<string[]>;
    /** Says the new run's flips (stderr), once its reports are written. */
    sayFlips(input: { runId: string; baseline: BaselineComparison | undefined }): Promise<void>;
  };
}

/** What the lease on a claimed judge call must outlast: every attempt of the request and its repair. */
export function leaseMs(timeoutSeconds: number): number {
  return Math.max(30_000, timeoutSeconds * 1000 * 2 * 5 + 60_000);
}

export async function loadHistory() {
  const [
    { openDatabase },
    { createRunStore },
    { claimOwner, createCachedJudge },
    { resumeKeysOf, verdictsOf },
    { createRunExport },
    { createBatchLedger },
  ] = await Promise.all([
    import("../store/open-database"),
    import("../store/run-store"),
    import("../store/cached-judge"),
    import("../store/stored-verdicts"),
    import("../store/run-export"),
    import("../store/batch-ledger"),
  ]);
  return {
    /** The baseline's verdicts of a window of result ids (a regrade's: its criteria's too, for the flips). */
    lookupFor: (input: { db: Database; runId: string; request: RunRequest }) => (keys: string[]) =>
      verdictsOf(input.db.prisma, {
        runId: input.runId,
        keys,
        criteria: input.request.regrade !== undefined,
      }),
    openDatabase,
    createRunStore,
    claimOwner,
    createCachedJudge,
    resumeKeysOf,
    verdictsOf,
    createRunExport,
    createBatchLedger,
  };
}
