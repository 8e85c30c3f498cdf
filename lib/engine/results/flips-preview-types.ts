import type { EvalStatus } from "./report";

/**
 * What a regrade (or the editor's preview) did to one result against the run it graded again
 * (`flipKindOf` in lib/engine/trust/regrade/flip-kind.ts decides it):
 * - `not_graded`: one side was not graded (skipped, e.g. by the `--max-cost` budget, or deferred):
 *   neither a pass nor a fail, so no flip, whatever the other side says (as the `--baseline` gate
 *   counts it: never a regression);
 * - `now_fail` / `now_pass`: the result's verdict flipped (passed ↔ failed or judge error);
 * - `criteria`: the result's verdict held, but a criterion's pass/fail flipped
 *   (a criterion's threshold edited, or two criteria trading places under an equal mean);
 * - `moved`: no verdict flipped, but the score or the status moved (0.40 → 0.55, failed → judge error);
 * - `unchanged`: none of these.
 */
export type FlipKind = "now_fail" | "now_pass" | "criteria" | "not_graded" | "moved" | "unchanged";

// The editor's flips preview as it travels to the browser (lib/store/flips-preview.ts
// makes it, components/authoring draws it): plain data, no server code.

export interface FlipRow {
  /** The stored result's key: the link to it is /runs/<run>/results/<id>. */
  id: string;
  name: string;
  eval: string;
  /** The matrix cell or dataset item, in words ("agent claude-haiku-4-5, prompt 2"); "" for a plain eval. */
  cell: string;
  kind: Extract<FlipKind, "now_fail" | "now_pass" | "criteria">;
  /** The criteria whose pass/fail flipped (with `kind: "criteria"`, at least one). */
  flippedCriteria: string[];
  previous: { status: EvalStatus; score: number | null; display: string };
  now: { status: EvalStatus; score: number | null; display: string };
  /** The new reasoning of each criterion whose verdict changed (a free-form rubric's: each judge's). */
  reasons: { criterion: string; score: number | null; reasoning: string }[];
  href: string;
}

/** The stored run a preview compares against, as the panel names it. */
export interface PreviewSource {
  runId: string;
  createdAt: string;
  status: string;
  /** The suite version it graded, numbered as the versions panel numbers them (v1 the oldest). */
  version: number;
}

export interface FlipsPlan {
  source: PreviewSource;
  /** Stored results graded again (those of evals and cells still in the text). */
  compared: number;
  /** Stored results whose eval or cell is no longer in the text (not compared). */
  gone: string[];
  /** Cells of the text with no stored candidate in the run (grade them with Run). */
  added: string[];
  /** Why some stored results are not compared though their eval is in the text (a dataset file the dashboard does not read), one line per eval. */
  unread: string[];
  /** Judge calls the preview will pay for (the rest come from the judge cache). */
  calls: number;
  reused: number;
  /** What the paid calls cost (priced ones); `unpricedCalls` have no price. */
  costUsd: number;
  unpricedCalls: number;
  maxCalls: number;
  /** Results the server cannot grade (a judge model whose provider has no key here), and why, in the first one's words. */
  deferred: number;
  deferReason?: string;
}

/**
 * Results graded again, by flip kind: the flips page's SQL and the editor's preview
 * (`countFlipKinds`) count them, `flipCountsText` words them.
 */
export interface FlipCounts {
  /** Passed before, failed (or a judge error) now. */
  nowFail: number;
  /** Failed (or a judge error) before, passed now. */
  nowPass: number;
  /** The result's verdict held, but a criterion's pass/fail flipped. */
  criteria: number;
  /** Skipped or deferred in either run (not graded there): no flip, no regression. */
  notGraded: number;
  /** Nothing flipped: the score or the status moved (failed → judge error, 0.40 → 0.55). */
  moved: number;
  unchanged: number;
}

export interface FlipsPreview extends FlipsPlan {
  flips: FlipRow[];
  /** The graded results by kind, counted as the flips page counts a regrade's. */
  counts: FlipCounts;
  spentUsd: number;
}
