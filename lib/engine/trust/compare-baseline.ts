import type { BaselineComparison, BaselineDelta, EvalResult, Report } from "../results/report";

// The score-delta gate: each result against the same result (same eval and
// cell) of a baseline run. A drop of more than `maxDrop` on the 0..1 scale is
// a regression; so is a result that passed in the baseline and fails now.

const FAILING = new Set<EvalResult["status"]>(["failed", "judge_error"]);

export function compareToBaseline(input: {
  report: Report;
  baseline: EvalResult[];
  baselineRunId: string;
  maxDrop: number;
}): BaselineComparison {
  const byId = new Map(input.baseline.map((r) => [r.id, r]));
  const deltas: BaselineDelta[] = input.report.results.map((result) => {
    const before = byId.get(result.id);
    const delta =
      before && before.score !== null && result.score !== null ? result.score - before.score : null;
    const newlyFailing = Boolean(
      before && before.status === "passed" && FAILING.has(result.status),
    );
    const newlyPassing = Boolean(
      before && FAILING.has(before.status) && result.status === "passed",
    );
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
