import type { EvalResult } from "../engine/results/report";
import type { Prisma } from "./generated/client";
import { withoutRepeatedVerdictText } from "../engine/results/stored-verdicts-text";
import { suiteOrderKey } from "./suite-order-key";

// A graded result as its table rows (Prisma's field names): what `saveResult` and `saveNewResults`
// (run-store.ts) write through Prisma, and `saveResultBatch` (result-batch.ts) in one statement.

function judgeModelOf(result: EvalResult): string | null {
  return result.judge.models[0] ?? null;
}

/** A result's columns (Prisma's field names); `saveResultBatch` (result-batch.ts) writes the same. */
export function rowOf(result: EvalResult) {
  return {
    evalName: result.eval,
    name: result.name,
    cellModel: result.cell?.model ?? null,
    cellAgent: result.cell?.agent ?? null,
    cellPrompt: result.cell?.promptIndex ?? null,
    judgeModel: judgeModelOf(result),
    judgeCount: Math.max(1, result.judges.length),
    rubricKind: result.rubric.kind,
    status: result.status,
    vacuous: result.vacuous,
    score: result.score,
    threshold: result.threshold,
    reason: result.reason,
    note: result.note ?? null,
    costUsd: result.costUsd,
    judgeCalls: result.judgeCalls,
    latencyMs: Math.round(result.latencyMs),
    suiteOrder: suiteOrderKey(result),
    // A lone verdict's reasoning and evidence are its criterion's: kept once (readStoredResult
    // puts them back).
    data: withoutRepeatedVerdictText(result) as unknown as Prisma.InputJsonValue,
  };
}

export function criterionRowsOf(runId: string, evalResultId: string, result: EvalResult) {
  return result.criteria.map((c) => ({
    evalResultId,
    runId,
    name: c.name,
    status: c.status,
    score: c.score,
    passed: c.passed,
    threshold: c.threshold,
    weight: c.weight,
    required: c.required,
    guard: c.guard,
    gates: c.gates,
  }));
}
