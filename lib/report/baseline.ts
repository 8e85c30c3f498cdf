import type { BaselineDelta, Report } from "../engine/results/report";
import { notable } from "../engine/trust/compare-baseline";
import { formatUnit } from "./format";

// The score-delta gate, as the text formats show them.
// One wording for pretty, md and html, so they never disagree.

export function baselineHeadline(report: Report): string | undefined {
  const b = report.baseline;
  // A regrade's gate against its source is said once, in the flips page's words, by `regrade`
  // and `report RUN_ID` themselves (lib/cli/say-flips.ts), not a second tally in other words.
  if (!b || report.regradeOf !== undefined) return undefined;
  const parts = [
    `${b.regressions} regression${b.regressions === 1 ? "" : "s"}`,
    `${b.newlyFailing} newly failing`,
    `${b.newlyPassing} newly passing`,
    ...(b.unmatched ? [`${b.unmatched} not in the baseline`] : []),
  ];
  return `Against baseline run ${b.runId} (max drop ${b.maxDrop.toFixed(2)}): ${parts.join(", ")}`;
}

/** The deltas worth a line: regressions, status changes and any drop. */
export function notableDeltas(report: Pick<Report, "baseline">): BaselineDelta[] {
  return (report.baseline?.deltas ?? []).filter(notable);
}

export function deltaMark(d: BaselineDelta): string {
  if (d.newlyFailing) return "newly failing";
  if (d.regressed) return "regressed";
  if (d.newlyPassing) return "newly passing";
  return "dropped";
}

export function formatDelta(d: BaselineDelta): string {
  const delta = d.delta === null ? "" : ` (${d.delta >= 0 ? "+" : ""}${d.delta.toFixed(2)})`;
  return `${formatUnit(d.baselineScore)} → ${formatUnit(d.score)}${delta}`;
}
