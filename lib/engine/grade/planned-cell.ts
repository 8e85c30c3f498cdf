import type { EvalConfig } from "../../config/types";
import type { CellCoordinates } from "../results/report";
import type { Candidate, Reference } from "./build-prompt";
import type { LiveRequest } from "../ports/live-port";

// A planned cell: what planning (plan/plan-suite.ts, plan/plan-cell-comparison.ts)
// hands to grading, explaining and the live runner. It sits here, below plan/,
// so that the graders of every rubric form (review/, pairwise/) can read it.

export interface JudgeInstance {
  model: string;
  /** 1-based juror number within its model. */
  juror: number;
  /** Display label: the model, with "#n" when there is a jury. */
  label: string;
  /** The provider the model resolved to (anthropic, openai, or a declared one), when the caller resolves models. */
  provider?: string;
}

export interface PlannedCell {
  id: string;
  name: string;
  eval: EvalConfig;
  cell: CellCoordinates | null;
  /** A matrix or dataset cell's place among its eval's cells as planned (1-based): the order results are listed in. */
  cellIndex?: number;
  candidate?: Candidate;
  /** For an eval without a response whose server is known: what the live agent would run. */
  live?: Pick<LiveRequest, "serverName" | "server" | "prompt" | "agent">;
  /** A dataset item's known-good answers and context, for the judge of its generated or live candidate. */
  reference?: Reference;
  /** Set when the cell cannot be graded now; it is reported deferred with this note. */
  deferReason?: string;
  judges: JudgeInstance[];
  /** Calls one judge makes: applicable criteria, 1 for free-form, the longest path for a tree. */
  callsPerJudge: number;
  judgeCalls: number;
  /** A comparison of two matrix cells of another eval (`compare: { eval, a, b }`): the source cells of each pair. */
  compared?: ComparedCells;
}

/** A cell whose candidate is the reply of a live agent run. */
export type LiveCell = PlannedCell & { live: NonNullable<PlannedCell["live"]> };

export interface ComparedPair {
  id: string;
  a: PlannedCell;
  b: PlannedCell;
}

export interface ComparedCells {
  pairs: ComparedPair[];
  /** Whether the source eval's own cells are graded in this run too (so live runs, and their cost, are shared with them). */
  sourcePlanned: boolean;
}

/** Cells with the same key grade the same agent run. Each dataset item is its own run, even when two items share an input. */
export function liveRunKey(cell: LiveCell): string {
  return JSON.stringify([
    cell.eval.name,
    cell.live.agent.model,
    cell.live.prompt,
    cell.cell?.item ?? null,
  ]);
}
