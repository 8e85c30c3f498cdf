import { judgeAgreement } from "../engine/trust/agreement/judge-agreement";
import { inSuiteOrder } from "../engine/results/suite-order";
import { multiJudgeResults } from "../engine/trust/agreement/agreement-units";
import {
  judgeDisagreements,
  type JudgeDisagreement,
} from "../engine/trust/agreement/judge-disagreements";
import {
  jurorAgreementMatrices,
  type JurorAgreementMatrix,
} from "../engine/trust/agreement/juror-agreement-matrix";
import type { EvalResult } from "../engine/results/report";
import type { JudgeAgreement } from "../engine/results/trust";

// The agreement view's figures computed from a run's multi-judge results (run-agreement.ts reads
// them): pure and without Prisma, so that the dashboard runs it on a worker thread (lib/offthread,
// task `agreement`) and `finishRun` in the process that finishes the run, the same code.

/** Results graded by two or more judges (the units of every figure below). */
export interface RunAgreement {
  results: number;
  /**
   * Set when the run has more such results than the view reads: the figures are over the first
   * this many in the suite's order (AGREEMENT_MAX_RESULTS), so a run of a million reads a bounded
   * sample; `of` is how many there are in all.
   */
  sampledFirst?: number;
  of?: number;
  statistics: JudgeAgreement[];
  matrices: JurorAgreementMatrix[];
  /** The first DISAGREEMENTS_KEPT disagreements; `disagreementCount` counts them all. */
  disagreements: JudgeDisagreement[];
  disagreementCount: number;
}

/** The most results the agreement view reads (in the suite's order): its figures over a bounded sample. */
export const AGREEMENT_MAX_RESULTS = 10_000;

/** The disagreements kept and shown (the page lists them; the count is of all). */
export const DISAGREEMENTS_KEPT = 200;

export const NO_AGREEMENT: RunAgreement = {
  results: 0,
  statistics: [],
  matrices: [],
  disagreements: [],
  disagreementCount: 0,
};

/** The engine's agreement figures over these results (pure: it runs on a worker thread too). */
export function agreementOf(input: {
  results: EvalResult[];
  sampledFirst?: number;
  of?: number;
}): RunAgreement {
  // In the suite's order, not the order they finished in: the lists read the same on every load.
  const results = inSuiteOrder(input.results);
  const disagreements = judgeDisagreements(results);
  return {
    ...(input.sampledFirst !== undefined
      ? { sampledFirst: input.sampledFirst, of: input.of ?? input.sampledFirst }
      : {}),
    results: multiJudgeResults(results).length,
    statistics: judgeAgreement(results),
    matrices: jurorAgreementMatrices(results),
    disagreements: disagreements.slice(0, DISAGREEMENTS_KEPT),
    disagreementCount: disagreements.length,
  };
}

/** Whether these figures were kept by this version (older runs kept none, or none with a count). */
export function isRunAgreement(value: unknown): value is RunAgreement {
  const a = value as RunAgreement | null | undefined;
  return !!a && typeof a.disagreementCount === "number" && Array.isArray(a.statistics);
}
