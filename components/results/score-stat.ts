import type { EvalStatus } from "@/lib/engine/results/report";
import { statusLabel } from "./status-badge";

// The result page's Score card: a score against its threshold, kept on one
// line (non-breaking spaces around the slash); a result that has no score
// says why in words ("judge error"), never the raw status name.

const NO_SCORE: ReadonlySet<EvalStatus> = new Set(["judge_error", "skipped", "deferred"]);

export function scoreStatValue(result: {
  status: EvalStatus;
  display: string;
  thresholdDisplay: string;
}): string {
  if (NO_SCORE.has(result.status)) return statusLabel(result.status);
  return `${result.display}\u00a0/\u00a0${result.thresholdDisplay}`;
}
