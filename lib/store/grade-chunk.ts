import type { EvalResult } from "../engine/results/report";
import type { CallScheduler } from "../engine/grade/call-scheduler";
import { cellSourceOf, streamSuite, type CellSource } from "../engine/stream-suite";
import { redactDeep } from "../engine/results/redact-secrets";
import type { PrismaClient } from "./connection";
import type { ChunkJob } from "./grade-queue";
import { storedResponsesOf } from "./regrade-replay";
import { createResultWriter } from "./result-writer";
import type { RunStore } from "./run-store";
import type { RunContext } from "./worker-run-context";

// One job of a queued run (run-worker.ts): its chunk's cells that have no
// stored result yet (a retried chunk pays only what its last worker had not
// stored), found in the plan by the worker's cursor, graded with the worker's
// shared scheduler, and each result written as it finishes (result-writer.ts:
// batched, bounded); the job completes once they are all written. A cell cut
// short by the worker's shutdown is not stored: the chunk goes back to the
// queue for it.

export async function gradeChunk(input: {
  context: RunContext;
  chunk: ChunkJob;
  prisma: PrismaClient;
  store: RunStore;
  scheduler: CallScheduler;
  /** The chunk's calls' priority in the worker's scheduler: the order the worker took its chunks. */
  priority: number;
  shutdown: AbortSignal;
  concurrency: number;
  toolVersion: string;
  onResult?: (runId: string, result: EvalResult) => void;
  log: (line: string) => void;
}): Promise<{ graded: number; interrupted: number }> {
  const { context, chunk, store } = input;
  const runId = context.run.id;
  const stored = await input.prisma.evalResultRow.findMany({
    where: { runId, resultKey: { in: chunk.cellIds } },
    select: { resultKey: true },
  });
  const done = new Set(stored.map((row) => row.resultKey));
  const todo = chunk.cellIds.filter((id) => !done.has(id));
  if (todo.length === 0) return { graded: 0, interrupted: 0 };

  // A regrade grades the fixed responses its source graded, as the CLI's regrade does.
  const regradeOf = context.replayed ? context.run.regradeOf : undefined;
  const responses = regradeOf
    ? await storedResponsesOf({ prisma: input.prisma, sourceRunId: regradeOf, cellIds: todo })
    : undefined;
  const replay = responses ? { agentsReplayed: true, storedResponses: responses } : {};
  const source: CellSource = responses
    ? await cellSourceOf({ ...context.plan, ...replay, onlyResultIds: new Set(todo) })
    : await heldSource(context, chunk.from, todo);
  if (source.cells < todo.length)
    input.log(
      `${todo.length - source.cells} cells of a chunk are no longer in the run's plan (its dataset file changed?): left ungraded`,
    );

  const writer = createResultWriter({
    store,
    runId,
    onRefused: ({ result, reason }) => input.log(`${result.id}: ${reason}`),
  });
  let interrupted = 0;
  let graded = 0;
  await streamSuite(
    {
      ...context.plan,
      ...replay,
      source,
      concurrency: input.concurrency,
      toolVersion: input.toolVersion,
      scheduler: input.scheduler,
      priority: input.priority,
      cancel: context.cancel.signal,
      shutdown: input.shutdown,
      ...(context.batch ? { batch: true } : {}),
      ...(context.run.config.plannedJudgeCalls !== undefined
        ? { runJudgeCalls: context.run.config.plannedJudgeCalls }
        : {}),
    },
    {
      judge: context.judge,
      now: Date.now,
      priceOf: context.priceOf,
      redact: context.redact,
      ...(context.live ? { live: context.live } : {}),
      onEvent: (event) => {
        if (event.type === "result") {
          if (event.result.status === "skipped" && event.result.skipKind === "interrupted") {
            interrupted++;
            return;
          }
          graded++;
          const result = redactDeep(event.result);
          writer.write(result);
          input.onResult?.(runId, result);
          return;
        }
        // The engine's warnings (a prompt-cache prefix neither written nor read), once per run.
        if (event.type !== "warning" || context.warned.has(event.message)) return;
        context.warned.add(event.message);
        input.log(`warning: ${event.message}`);
      },
    },
  );
  await writer.settled();
  return { graded, interrupted };
}

/** The chunk's cells, found by the worker's cursor in the run's plan, held while they are graded. */
async function heldSource(context: RunContext, from: number, ids: string[]): Promise<CellSource> {
  const cells = await context.cursor.cells(from, ids);
  return {
    cells: cells.length,
    judgeCalls: cells.reduce((n, cell) => n + cell.judgeCalls, 0),
    each: cells,
  };
}
