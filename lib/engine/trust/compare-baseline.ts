import type {
  BaselineComparison,
  BaselineDelta,
  CriterionResult,
  EvalResult,
  Report,
} from "../results/report";
import { NOT_GRADED } from "./regrade/flip-kind";

// The score-delta gate: each result against the same result (same eval and
// cell) of a baseline run. A drop of more than `maxDrop` on the 0..1 scale is
// a regression; so is a result that passed in the baseline and fails now.
// `BaselineTally` folds one result at a time (a stored run streamed in pages,
// issue 20); `compareToBaseline` folds a whole report through it.

const FAILING = new Set<EvalResult["status"]>(["failed", "judge_error"]);

/** What the gate reads of a baseline's result (a regrade's source: its criteria's verdicts too). */
export type BaselineVerdict = Pick<EvalResult, "score" | "status"> & {
  criteria?: readonly Pick<CriterionResult, "name" | "passed">[];
};

/** One result against its baseline verdict (none: not in the baseline). */
export function deltaOf(input: {
  result: Pick<EvalResult, "id" | "name" | "score" | "status">;
  before: BaselineVerdict | undefined;
  maxDrop: number;
}): BaselineDelta {
  const { result, before } = input;
  const delta =
    before && before.score !== null && result.score !== null ? result.score - before.score : null;
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
}

/**
 * Whether a result was graded in one run and not the other (not graded: skipped or deferred, as
 * the flips page counts it). Neither a pass nor a fail, so never newly passing, newly failing or a
 * regression; the History page's comparison says it apart so that a changed status is never
 * left unsaid (`now_graded`: deferred → passed, say). Null when both sides were graded, neither
 * was, or the result is not in the baseline.
 */
export function gradedChangeOf(
  d: Pick<BaselineDelta, "baselineStatus" | "status">,
): "now_graded" | "no_longer_graded" | null {
  if (d.baselineStatus === null) return null;
  const before = !NOT_GRADED.includes(d.baselineStatus);
  const now = !NOT_GRADED.includes(d.status);
  if (before === now) return null;
  return now ? "now_graded" : "no_longer_graded";
}

/** Whether the reports show a delta (a regression, a status change or any drop). */
export function notable(d: BaselineDelta): boolean {
  return d.regressed || d.newlyPassing || (d.delta !== null && d.delta < 0);
}

/**
 * The comparison folded one result at a time. It keeps every delta when `every` (a report that is
 * rendered whole lists them), else only the notable ones (what the reports show), and counts the rest.
 */
export class BaselineTally {
  private readonly deltas: BaselineDelta[] = [];
  private regressions = 0;
  private newlyFailing = 0;
  private newlyPassing = 0;
  private unmatched = 0;

  constructor(private readonly input: { runId: string; maxDrop: number; every: boolean }) {}

  add(
    result: Pick<EvalResult, "id" | "name" | "score" | "status">,
    before: BaselineVerdict | undefined,
  ): BaselineDelta {
    const d = deltaOf({ result, before, maxDrop: this.input.maxDrop });
    if (d.regressed) this.regressions++;
    if (d.newlyFailing) this.newlyFailing++;
    if (d.newlyPassing) this.newlyPassing++;
    if (d.baselineStatus === null) this.unmatched++;
    if (this.input.every || notable(d)) this.deltas.push(d);
    return d;
  }

  comparison(): BaselineComparison {
    return {
      runId: this.input.runId,
      maxDrop: this.input.maxDrop,
      deltas: [...this.deltas],
      regressions: this.regressions,
      newlyFailing: this.newlyFailing,
      newlyPassing: this.newlyPassing,
      unmatched: this.unmatched,
    };
  }
}

export function compareToBaseline(input: {
  report: Report;
  baseline: EvalResult[];
  baselineRunId: string;
  maxDrop: number;
}): BaselineComparison {
  const byId = new Map(input.baseline.map((r) => [r.id, r]));
  const tally = new BaselineTally({
    runId: input.baselineRunId,
    maxDrop: input.maxDrop,
    every: true,
  });
  for (const result of input.report.results) tally.add(result, byId.get(result.id));
  return tally.comparison();
}
