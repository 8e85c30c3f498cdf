import type { EvalResult, Report } from "./report";

// The score-delta gate: each result against the same result (same eval and
// cell) of a baseline run. A drop of more than `maxDrop` on the 0..1 scale is
// a regression; so is a result that passed in the baseline and fails now.

export interface BaselineDelta {
  id: string;
  name: string;
  baselineScore: number | null;
  score: number | null;
  /** score - baselineScore; null when either side has no score. */
  delta: number | null;
  baselineStatus: EvalResult["status"] | null;
  status: EvalResult["status"];
  newlyFailing: boolean;
  newlyPassing: boolean;
  /** Dropped by more than maxDrop, or newly failing. */
  regressed: boolean;
}

export interface BaselineComparison {
  runId: string;
  maxDrop: number;
  deltas: BaselineDelta[];
  regressions: number;
  newlyFailing: number;
  newlyPassing: number;
  /** Results of this run the baseline does not have (new evals or cells). */
  unmatched: number;
}

const FAILING = new Set<EvalResult["status"]>(["failed", "judge_error"]);

export function compareToBaseline(input: { report: Report; baseline: EvalResult[]; baselineRunId: string; maxDrop: number }): BaselineComparison {
  const byId = new Map(input.baseline.map((r) => [r.id, r]));
  const deltas: BaselineDelta[] = input.report.results.map((result) => {
    const before = byId.get(result.id);
    const delta = before && before.score !== null && result.score !== null ? result.score - before.score : null;
    const newlyFailing = Boolean(before && before.status === "passed" && FAILING.has(result.status));
    const newlyPassing = Boolean(before && FAILING.has(before.status) && result.status === "passed");
    return {
      id: result.id,
      name: result.name,
      baselineScore: before?.score ?? null,
      score: result.score,
      delta,
      baselineStatus: before?.status ?? null,
      status: result.status,
      newlyFailing,
      newlyPassing,
      // A hair of tolerance so that a drop of exactly maxDrop passes.
      regressed: newlyFailing || (delta !== null && -delta > input.maxDrop + 1e-9),
    };
  });
  return {
    runId: input.baselineRunId,
    maxDrop: input.maxDrop,
    deltas,
    regressions: deltas.filter((d) => d.regressed).length,
    newlyFailing: deltas.filter((d) => d.newlyFailing).length,
    newlyPassing: deltas.filter((d) => d.newlyPassing).length,
    unmatched: deltas.filter((d) => d.baselineStatus === null).length,
  };
}
