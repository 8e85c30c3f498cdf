// A regrade's results counted against its source's, as the flips page heads its rows and
// `rubric-studio regrade` ends: one wording for both, so they never say different numbers
// (lib/store/regrade-views.ts's `flipCounts` counts them in SQL, by `flipKindOf`; the editor's
// flips preview, lib/store/flips-preview.ts, counts its results with `countFlipKinds`).

import type { FlipCounts, FlipKind } from "../../results/flips-preview-types";
import type { CriterionResult } from "../../results/report";
import { formatCount } from "../../../config/limits";

/** A regrade's results against its source's, by flip kind. */
export type FlipCountsView = FlipCounts;

const KEY: Record<FlipKind, keyof FlipCounts> = {
  now_fail: "nowFail",
  now_pass: "nowPass",
  criteria: "criteria",
  not_graded: "notGraded",
  moved: "moved",
  unchanged: "unchanged",
};

/** Results counted by their kind (`flipKindOf`), as the flips page's SQL counts a stored regrade's. */
export function countFlipKinds(kinds: readonly FlipKind[]): FlipCountsView {
  const counts: FlipCountsView = {
    nowFail: 0,
    nowPass: 0,
    criteria: 0,
    notGraded: 0,
    moved: 0,
    unchanged: 0,
  };
  for (const kind of kinds) counts[KEY[kind]]++;
  return counts;
}

const n = (count: number, one: string, many: string) =>
  `${formatCount(count)} ${count === 1 ? one : many}`;

/** The results a person needs to look at (the flips page lists them): flips, the not graded, score moves. */
export function changedCount(counts: FlipCountsView): number {
  return counts.nowFail + counts.nowPass + counts.criteria + counts.notGraded + counts.moved;
}

/**
 * "4 flips: 2 now fail, 1 now passes, 1 with a criterion flipped; 3 not graded; 4 moved without
 * flipping; 14 unchanged" (parts with nothing in them left out). Not graded (skipped or deferred
 * in either run) is neither a pass nor a fail: never a flip.
 */
export function flipCountsText(counts: FlipCountsView): string {
  const flips = counts.nowFail + counts.nowPass + counts.criteria;
  const which = [
    counts.nowFail ? n(counts.nowFail, "now fails", "now fail") : "",
    counts.nowPass ? n(counts.nowPass, "now passes", "now pass") : "",
    counts.criteria ? `${counts.criteria} with a criterion flipped` : "",
  ].filter(Boolean);
  return [
    `${n(flips, "flip", "flips")}${which.length ? `: ${which.join(", ")}` : ""}`,
    ...(counts.notGraded ? [`${formatCount(counts.notGraded)} not graded`] : []),
    ...(counts.moved ? [`${counts.moved} moved without flipping`] : []),
    `${counts.unchanged} unchanged`,
  ].join("; ");
}

/** Each kind of change as the flips page and `regrade`'s list of flips name it. */
export const FLIP_KIND_TEXT: Record<FlipKind, string> = {
  now_fail: "now fails",
  now_pass: "now passes",
  criteria: "a criterion flipped",
  not_graded: "not graded",
  moved: "moved",
  unchanged: "unchanged",
};

/** "criteria flipped: tone (passed → failed), length (failed → passed)". */
export function criteriaFlipText(pair: {
  current: { criteria: readonly Pick<CriterionResult, "name" | "passed">[] };
  flippedCriteria: readonly string[];
}): string {
  const now = new Map(pair.current.criteria.map((c) => [c.name, c.passed]));
  const word = (passed: boolean | null | undefined) => (passed ? "passed" : "failed");
  return `${pair.flippedCriteria.length === 1 ? "criterion" : "criteria"} flipped: ${pair.flippedCriteria
    .map((name) => `${name} (${word(!now.get(name))} → ${word(now.get(name))})`)
    .join(", ")}`;
}
