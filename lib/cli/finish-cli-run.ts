import { markRegrade } from "../engine/trust/regrade/regrade";
import type { EvalResult } from "../engine/results/report";
import { exitCodeOf, type ReportHead } from "../engine/run-suite";
import type { ReviewQuestion } from "../engine/trust/people/needs-person";
import type { RunStore } from "../store/run-store";
import type { ReportStreams } from "./stream-reports";
import type { RunRequest } from "./run-request";
import { saySavings, sayStopped } from "./run-messages";

// The end of one run from the command line (executeRun), once every result has been graded and
// streamed: a regrade's report marked as its flips, the stored run finished with the duration the
// store says, the stop said, the reports finished, and the exit code (1 when the gate failed).

export async function finishCliRun(input: {
  head: ReportHead;
  /** The results a report rendered whole holds (none when every report streams). */
  collected: EvalResult[];
  request: RunRequest;
  store: RunStore | undefined;
  runId: string | undefined;
  /** The review queue's questions, asked for only when the run is stored. */
  questions: () => ReviewQuestion[];
  stopped: "interrupted" | "cancelled" | undefined;
  streams: ReportStreams;
}): Promise<number> {
  const { request, store, runId } = input;
  const { io } = request;
  let { head, collected } = input;
  if (request.regrade) {
    // A report rendered whole lists the flips as the flips page does (its query's order, once
    // the results are stored); each result already carries its previous verdict.
    const order =
      collected.length > 0 && runId ? await request.regrade.flipOrder(runId) : undefined;
    const { results, ...marked } = markRegrade({
      report: { ...head, results: collected },
      source: [],
      sourceRunId: request.regrade.sourceRunId,
      ...(order ? { order } : {}),
    });
    head = marked;
    collected = results;
  }
  if (runId) head = { ...head, runId };
  if (store && runId) {
    // The run's one duration, from when the store says it started: `report RUN_ID` says the same.
    const startedAt = (await store.getRun(runId))?.startedAt;
    if (startedAt)
      head = {
        ...head,
        startedAt: startedAt.toISOString(),
        durationMs: Date.parse(head.finishedAt) - startedAt.getTime(),
      };
    await store.finishRun({
      runId,
      report: head,
      questions: input.questions(),
      finishedAt: new Date(head.finishedAt),
      status: input.stopped ? "cancelled" : "completed",
    });
  }
  if (runId)
    sayStopped({ runId, io, batched: Boolean(request.config.batch), stopped: input.stopped });
  saySavings(head, io);
  await input.streams.finish(head, collected);
  if (request.regrade && runId) await request.regrade.sayFlips({ runId, baseline: head.baseline });
  return exitCodeOf(head);
}
