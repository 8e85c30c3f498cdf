import type { EvalResult } from "../engine/results/report";
import type { RunStore } from "./run-store";
import { storableText } from "./storable";

// A graded result that the database refused (a constraint, a trigger, a
// value it cannot hold that slipped past every check): its cell is not left
// without a result, or its run would wait forever for it. What is stored in
// its place is a judge error that says why, with what the result's calls
// cost, so the run finishes, the cause is shown where the result would be,
// and no money spent is hidden. The texts that may have caused the refusal
// (candidate, criteria, verdicts) are left out.

/** A database error in one line: Prisma's messages run over many (the call, the query), and the last is the database's own words. */
export function oneLineCause(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const lines = message
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean);
  return storableText(lines.at(-1) ?? "unknown error").slice(0, 300);
}

/** The one line a person reads for a result that could not be stored. */
export function unstoredReason(error: unknown): string {
  return `the result could not be stored: ${oneLineCause(error)}`;
}

/** What is stored in place of a result the database refused. */
export function unstoredResult(result: EvalResult, error: unknown): EvalResult {
  const reason = unstoredReason(error);
  return {
    id: result.id,
    name: result.name,
    eval: result.eval,
    cell: result.cell,
    status: "judge_error",
    vacuous: false,
    score: null,
    threshold: result.threshold,
    scale: result.scale,
    display: "error",
    thresholdDisplay: result.thresholdDisplay,
    reason,
    note: reason,
    rubric: { kind: result.rubric.kind, source: result.rubric.source },
    judge: result.judge,
    candidate: { source: result.candidate.source },
    criteria: [],
    judges: [],
    gates: [],
    usage: result.usage,
    costUsd: result.costUsd,
    judgeCalls: result.judgeCalls,
    latencyMs: result.latencyMs,
    calls: result.calls.map(({ error: _error, ...call }) => call),
    ...(result.location ? { location: result.location } : {}),
    ...(result.cellIndex !== undefined ? { cellIndex: result.cellIndex } : {}),
  };
}

/**
 * `saveResult`, and when the database refuses the result, the judge error in
 * its place: the cell has a result, so its run can finish. Returns what was
 * stored, and `refused` with the reason when it was the judge error. Throws
 * only when that cannot be stored either (the database is gone).
 */
export async function saveResultOrCause(input: {
  store: Pick<RunStore, "saveResult">;
  runId: string;
  result: EvalResult;
}): Promise<{ stored: EvalResult; refused?: string }> {
  const { store, runId, result } = input;
  try {
    await store.saveResult(runId, result);
    return { stored: result };
  } catch (error) {
    const instead = unstoredResult(result, error);
    await store.saveResult(runId, instead);
    return { stored: instead, refused: instead.reason };
  }
}
