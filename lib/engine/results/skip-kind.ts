import { formatCount } from "../../config/limits";
import type { SkipKind } from "../ports/judge-port";

// Why an eval was not graded: the --max-cost budget, a cancel request
// (dashboard, `rubric-studio cancel`), or an interruption (Ctrl-C, a worker's
// shutdown). The kind travels in the result (`EvalResult.skipKind`), so every
// reporter and the dashboard say the cause once, and say the right one.
// Beside the ports at the floor: the scheduler, the report type and the reporters stand on it.

// The type lives in the ports (the live port's outcome carries it).
export type { SkipKind };

export const SKIP_KINDS: readonly SkipKind[] = ["budget", "cancelled", "interrupted"];

/** How many skipped results each cause accounts for. */
export type SkippedBy = Partial<Record<SkipKind, number>>;

const CAUSE: Record<SkipKind, string> = {
  budget: "the --max-cost budget was reached",
  cancelled: "the run was cancelled",
  interrupted: "the run was interrupted",
};

/** "skipped (budget)", "skipped (cancelled)", "skipped (interrupted)"; "skipped" when the kind is unknown. */
export function skipLabel(kind: SkipKind | undefined): string {
  return kind ? `skipped (${kind})` : "skipped";
}

/** "<cause> before <what>", e.g. "the run was cancelled before this criterion's judge call". */
export function skipDetail(kind: SkipKind, what: string): string {
  return `${CAUSE[kind]} before ${what}`;
}

/**
 * The fields of a skipped result: its kind, a reason that names the cause
 * once ("skipped (cancelled): the run was cancelled before ..."), and a note
 * without the label, for formats that print the label beside it.
 */
export function skippedFields(kind: SkipKind, what: string) {
  const note = skipDetail(kind, what);
  return {
    status: "skipped" as const,
    score: null,
    display: "skipped",
    skipKind: kind,
    reason: `${skipLabel(kind)}: ${note}`,
    note,
  };
}

/**
 * Whether `resume` grades a stored result again: one cut short by the run
 * stopping (Ctrl-C, a cancel, a worker's shutdown) is; a budget skip is not,
 * since the resumed run would spend the run's --max-cost a second time.
 */
export function gradedOnResume(result: { status: string; skipKind?: SkipKind }): boolean {
  return (
    result.status === "skipped" &&
    (result.skipKind === "interrupted" || result.skipKind === "cancelled")
  );
}

/** Counts per cause of the skipped results among these. */
export function skippedByOf(
  results: readonly { status: string; skipKind?: SkipKind }[],
): SkippedBy {
  const by: SkippedBy = {};
  for (const r of results)
    if (r.status === "skipped" && r.skipKind) by[r.skipKind] = (by[r.skipKind] ?? 0) + 1;
  return by;
}

/**
 * The summary's name for the skipped count: "skipped (cancelled)" when one
 * cause accounts for all of them, "skipped (2 budget, 3 cancelled)" when
 * several do, plain "skipped" when the causes are unknown.
 */
export function skippedCountLabel(skippedBy: SkippedBy | undefined): string {
  const kinds = SKIP_KINDS.filter((k) => (skippedBy?.[k] ?? 0) > 0);
  if (kinds.length === 0) return "skipped";
  if (kinds.length === 1) return skipLabel(kinds[0]);
  return `skipped (${kinds.map((k) => `${formatCount(skippedBy![k] ?? 0)} ${k}`).join(", ")})`;
}

const LEGACY = /^skipped \((budget|interrupted)\): /;

/**
 * A result stored before skips had a kind spelt its cause in its note
 * ("skipped (budget): ..."); read it as one that has the kind.
 */
export function withSkipKind<R extends { status: string; skipKind?: SkipKind; note?: string }>(
  result: R,
): R {
  if (result.status !== "skipped" || result.skipKind || result.note === undefined) return result;
  const match = LEGACY.exec(result.note);
  if (!match) return result;
  return { ...result, skipKind: match[1] as SkipKind, note: result.note.slice(match[0].length) };
}
