import type { JudgePort } from "../engine/ports/judge-port";
import type { EvalResult, EvalStatus, ReportSummary } from "../engine/results/report";
import type { ReportHead } from "../engine/trust/report-totals";
import { redactDeep } from "../engine/results/redact-secrets";
import type { RunStore } from "../store/run-store";
import { createResultWriter, RESULT_BATCH_SIZE } from "../store/result-writer";

// A CLI run's results are written as they are graded, in batches (lib/store/result-writer.ts: what
// finished while the last batch was written goes in one statement), so a crash keeps every result
// written before it and loses at most the last batch's; the writes are awaited before the run is
// closed. The queue is bounded: `throttle` makes each judge call wait while it is full, so a slow
// database slows the run instead of filling memory. One the database refuses is stored as a judge
// error that says why, with its cost (lib/store/unstored-result.ts), said in one line, and it
// replaces the graded one in the run's report: `save` resolves, once the result's write has
// landed, to what the run's reports show for it (the result, or the judge error stored instead),
// and lib/cli/result-pipeline.ts sends that on, so the lines written as the run goes, the
// summary (`withRefused`), the exit code and the stored run all tell the same.

/**
 * Results a CLI run lets wait to be written: two batches (one being written, the next filling).
 * A result is ~5-35 KB in memory (its candidate, the judges' reasoning), so the writer's default
 * of 5,000 could hold 150 MB of a run's results while a slow database catches up (issue 20).
 */
export const CLI_MAX_QUEUED = 2 * RESULT_BATCH_SIZE;

/** A result the database refused: its status as graded, and the judge error stored instead. */
export interface RefusedResult {
  status: EvalStatus;
  stored: EvalResult;
}

const COUNT_OF: Record<EvalStatus, keyof ReportSummary & string> = {
  passed: "passed",
  failed: "failed",
  deferred: "deferred",
  judge_error: "judgeErrors",
  skipped: "skipped",
};

/** The report's figures with each refused result counted as the judge error stored in its place (same calls, same cost). */
export function withRefused(
  head: ReportHead,
  refused: ReadonlyMap<string, RefusedResult>,
): ReportHead {
  if (refused.size === 0) return head;
  const summary = { ...head.summary } as ReportSummary & Record<string, unknown>;
  for (const { status } of refused.values()) {
    (summary[COUNT_OF[status]] as number)--;
    summary.judgeErrors++;
  }
  return { ...head, summary };
}

export function createResultSaver(input: {
  store: RunStore;
  runId: string;
  /** Writes one line to the terminal. */
  say: (line: string) => void;
  batchSize?: number;
  maxQueued?: number;
}) {
  const refused = new Map<string, RefusedResult>();
  // The writes waiting to land, per result id in the order queued: what was written, and what
  // the reports get once it has.
  const waiting = new Map<
    string,
    { written: EvalResult; original: EvalResult; land: (shown: EvalResult) => void }[]
  >();
  const landed = (stored: EvalResult) => {
    const queue = waiting.get(stored.id);
    const next = queue?.shift();
    if (!next) return;
    if (queue!.length === 0) waiting.delete(stored.id);
    next.land(stored === next.written ? next.original : stored);
  };
  const writer = createResultWriter({
    store: {
      saveResults: async (runId, batch) => {
        await input.store.saveResults(runId, batch);
        for (const result of batch) landed(result);
      },
      // One result, or the judge error stored in its place (lib/store/unstored-result.ts).
      saveResult: async (runId, result) => {
        await input.store.saveResult(runId, result);
        landed(result);
      },
    },
    runId: input.runId,
    ...(input.batchSize ? { batchSize: input.batchSize } : {}),
    maxQueued: input.maxQueued ?? CLI_MAX_QUEUED,
    onRefused: ({ result, stored, reason }) => {
      refused.set(result.id, { status: result.status, stored });
      input.say(`error: ${result.name}: ${reason}`);
    },
  });
  return {
    /**
     * Queues the result's write. Resolves, once it has landed, to what the reports show: the result
     * itself, or the judge error the database took in its place; never, when the database is gone
     * (then `settled()` throws).
     */
    save(result: EvalResult): Promise<EvalResult> {
      const written = redactDeep(result);
      return new Promise((land) => {
        const queue = waiting.get(written.id) ?? [];
        queue.push({ written, original: result, land });
        waiting.set(written.id, queue);
        writer.write(written);
      });
    },
    /** The judge, each of whose calls first waits while the results queue is full (back-pressure). */
    throttle(judge: JudgePort): JudgePort {
      return {
        grade: async (request, context) => {
          await writer.room();
          return judge.grade(request, context);
        },
        ...(judge.cachePrefixes ? { cachePrefixes: judge.cachePrefixes.bind(judge) } : {}),
      };
    },
    /** Waits for every write; throws when one could not be stored at all. Returns the refused results, by result id. */
    async settled(): Promise<ReadonlyMap<string, RefusedResult>> {
      await writer.settled();
      return refused;
    },
  };
}
