import type { EvalResult, EvalStatus } from "../engine/results/report";
import { skipLabel, skippedCountLabel, type SkippedBy } from "../engine/results/skip-kind";

// How each status reads to a person, shared by every human format so that a
// status is spelt the same in the terminal, Markdown and HTML.

export interface StatusStyle {
  /** Lower-case words for prose and machine-ish labels. */
  label: string;
  /** A short upper-case tag that distinguishes the status without colour. */
  tag: string;
  symbol: string;
  /** ANSI SGR code for the pretty reporter. */
  ansi: string;
}

export const STATUS_STYLES: Record<EvalStatus, StatusStyle> = {
  passed: { label: "passed", tag: "PASS", symbol: "✓", ansi: "32" },
  failed: { label: "failed", tag: "FAIL", symbol: "✗", ansi: "31" },
  deferred: { label: "deferred", tag: "DEFER", symbol: "○", ansi: "36" },
  judge_error: { label: "judge error", tag: "ERROR", symbol: "!", ansi: "35" },
  // A skipped eval was never graded and must not read as a pass; resultLabel
  // adds its cause (budget, cancelled, interrupted).
  skipped: { label: "skipped", tag: "SKIP", symbol: "↷", ansi: "33" },
};

/**
 * How the summary names skipped evals, by the causes their results carry:
 * "skipped (cancelled)", or "skipped (2 budget, 1 cancelled)" when mixed.
 */
export function skippedSummaryLabel(report: { summary: { skippedBy?: SkippedBy } }): string {
  return skippedCountLabel(report.summary.skippedBy);
}

/** The label with a skip's cause, or the vacuous-pass mark, since a vacuous pass graded nothing. */
export function resultLabel(result: Pick<EvalResult, "status" | "vacuous" | "skipKind">): string {
  if (result.status === "skipped") return skipLabel(result.skipKind);
  const label = STATUS_STYLES[result.status].label;
  return result.status === "passed" && result.vacuous ? `${label} (vacuous)` : label;
}

/** Whether a result is reported as a problem (everything but a plain pass). */
export function isNonPassing(status: EvalStatus): boolean {
  return status !== "passed";
}
