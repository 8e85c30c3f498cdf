import type { EvalResult } from "../engine/results/report";
import { redactDeep } from "../engine/results/redact-secrets";
import type { RunStore } from "../store/run-store";
import { saveResultOrCause } from "../store/unstored-result";

// A CLI run's results are written one at a time as they are graded, so a
// crash keeps every finished one; the chain is awaited before the run is
// closed. One the database refuses is stored as a judge error that says why,
// with its cost (lib/store/unstored-result.ts), said in one line, and it
// replaces the graded one in the run's report, so the report, the exit code
// and the stored run agree.

export function createResultSaver(input: {
  store: RunStore;
  runId: string;
  /** Writes one line to the terminal. */
  say: (line: string) => void;
}) {
  let saving: Promise<void> = Promise.resolve();
  const refused = new Map<string, EvalResult>();
  return {
    save(result: EvalResult): void {
      saving = saving.then(async () => {
        const saved = await saveResultOrCause({
          store: input.store,
          runId: input.runId,
          result: redactDeep(result),
        });
        if (!saved.refused) return;
        refused.set(result.id, saved.stored);
        input.say(`error: ${result.name}: ${saved.refused}`);
      });
      // A write that fails outright rejects the chain; settled() reports it. Until the run awaits
      // it, the rejection must not count as unhandled (Node would end the process with Prisma's
      // stack, before the run is marked failed).
      saving.catch(() => {});
    },
    /** Waits for every write; throws when one could not be stored at all. Returns what was stored in place of refused results, by result id. */
    async settled(): Promise<ReadonlyMap<string, EvalResult>> {
      await saving;
      return refused;
    },
  };
}
