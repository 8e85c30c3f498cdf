import type { EvalStatus } from "../../lib/engine/results/report";

// What a run's badge says: its state, and for a finished run whether its
// results held. A run that completed with failures is not a green
// "completed" (the runs list, a suite's history and the suites list agree).

export type RunTone = "success" | "danger" | "warning" | "info" | "neutral";

export interface RunOutcome {
  label: string;
  tone: RunTone;
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

export function runOutcome(
  status: string,
  counts: Pick<Record<EvalStatus, number>, "passed" | "failed" | "judge_error"> &
    Partial<Pick<Record<EvalStatus, number>, "deferred" | "skipped">>,
): RunOutcome {
  if (status === "queued" || status === "running" || status === "cancelling")
    return { label: status === "cancelling" ? "cancelling…" : status, tone: "info" };
  if (status === "failed") return { label: "run failed", tone: "danger" };
  const problems = [
    counts.failed ? plural(counts.failed, "failed", "failed") : "",
    counts.judge_error ? plural(counts.judge_error, "judge error") : "",
  ].filter(Boolean);
  if (problems.length)
    return {
      label: `${status} · ${problems.join(", ")}`,
      tone: counts.failed ? "danger" : "warning",
    };
  if (status === "cancelled") return { label: "cancelled", tone: "warning" };
  // Nothing failed, but nothing passed either (every eval deferred or skipped): not a success.
  if (counts.passed === 0) return { label: `${status} · nothing graded`, tone: "neutral" };
  // A deferred or skipped result is not a pass: "all passed" would say it was.
  const ungraded = [
    counts.deferred ? `${counts.deferred} deferred` : "",
    counts.skipped ? `${counts.skipped} skipped` : "",
  ].filter(Boolean);
  return ungraded.length
    ? { label: `all graded passed · ${ungraded.join(", ")}`, tone: "success" }
    : { label: "all passed", tone: "success" };
}

/** Passed results over those graded (passed, failed, judge errors); null when none was graded. */
export function passRate(
  counts: Pick<Record<EvalStatus, number>, "passed" | "failed" | "judge_error">,
): number | null {
  const graded = counts.passed + counts.failed + counts.judge_error;
  return graded > 0 ? counts.passed / graded : null;
}

/**
 * The runs list's pass rate: passed over graded, and for a run that was
 * stopped or skipped results, of how many graded, so that a cancelled run
 * whose two graded results passed reads "100% of 2 graded (4 skipped)", not a
 * clean "100%".
 */
export function passRateText(input: {
  status: string;
  counts: Pick<Record<EvalStatus, number>, "passed" | "failed" | "judge_error" | "skipped">;
}): string {
  const { counts } = input;
  const rate = passRate(counts);
  const graded = counts.passed + counts.failed + counts.judge_error;
  if (rate === null) return input.status === "cancelled" ? "— (cancelled)" : "—";
  const pct = `${Math.round(rate * 100)}%`;
  if (input.status !== "cancelled" && counts.skipped === 0) return pct;
  const skipped = counts.skipped > 0 ? `, ${counts.skipped} skipped` : "";
  return `${pct} of ${graded} graded${input.status === "cancelled" ? ` (cancelled${skipped})` : ` (${counts.skipped} skipped)`}`;
}
