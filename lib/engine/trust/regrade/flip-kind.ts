import type { FlipKind } from "../../results/flips-preview-types";
import type { CriterionResult, EvalResult } from "../../results/report";

export type { FlipKind };

// What a regrade (or the editor's preview) did to one result, against the
// same result in the run it graded again. One definition for the flips page
// (lib/store/regrade-views.ts spells it in SQL, and its test holds the two
// together) and the editor's flips preview (lib/store/flips-preview.ts).

/** The flips a person needs to see: a result's own verdict, or one of its criteria's. */
export const FLIP_KINDS: readonly FlipKind[] = ["now_fail", "now_pass", "criteria"];

/** What a flip is decided by: the verdict, and each criterion's pass/fail by name. */
export type Graded = Pick<EvalResult, "status" | "score"> & {
  criteria?: readonly Pick<CriterionResult, "name" | "passed">[];
};

/**
 * The criteria graded pass or fail in both whose verdict differs, by name, in the result's order.
 * A stored result without criteria (as the SQL's `coalesce(data -> 'criteria', '[]')`) has none.
 */
export function flippedCriteria(input: { now: Graded; before: Graded }): string[] {
  const before = new Map((input.before.criteria ?? []).map((c) => [c.name, c.passed]));
  return (input.now.criteria ?? [])
    .filter((c) => {
      const was = before.get(c.name);
      return typeof c.passed === "boolean" && typeof was === "boolean" && c.passed !== was;
    })
    .map((c) => c.name);
}

/** Not graded: skipped (the budget, a cancel) or deferred. Neither a pass nor a fail. */
export const NOT_GRADED: readonly Graded["status"][] = ["skipped", "deferred"];

/**
 * One result against its source's. A side not graded is no flip (the `--baseline` gate,
 * lib/engine/trust/compare-baseline.ts, counts no regression there either): `not_graded`.
 */
export function flipKindOf(input: { now: Graded; before: Graded }): FlipKind {
  const { now, before } = input;
  if (NOT_GRADED.includes(now.status) || NOT_GRADED.includes(before.status)) return "not_graded";
  const passes = now.status === "passed";
  if (passes !== (before.status === "passed")) return passes ? "now_pass" : "now_fail";
  if (flippedCriteria(input).length > 0) return "criteria";
  return now.score !== before.score || now.status !== before.status ? "moved" : "unchanged";
}

export function isFlip(kind: FlipKind): boolean {
  return FLIP_KINDS.includes(kind);
}
