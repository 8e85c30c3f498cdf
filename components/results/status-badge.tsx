import type { EvalStatus } from "@/lib/engine/results/report";
import styles from "./results.module.css";
import { runOutcome, type RunTone } from "./run-outcome";

// One badge for eval statuses (passed, failed, deferred, judge_error, skipped)
// and run statuses (queued, running, completed...): every status reads apart,
// and a budget skip never looks like a pass.

const LABELS: Record<string, string> = {
  passed: "passed",
  failed: "failed",
  deferred: "deferred",
  judge_error: "judge error",
  skipped: "skipped",
  completed: "completed",
  running: "running",
  queued: "queued",
  cancelled: "cancelled",
};

/** A status as people read it ("judge error"), never the raw enum name. */
export function statusLabel(status: string): string {
  return LABELS[status] ?? status.replace(/_/g, " ");
}

const TONE: Record<string, string | undefined> = {
  passed: styles.passed,
  completed: styles.passed,
  failed: styles.failed,
  cancelled: styles.skipped,
  deferred: styles.deferred,
  judge_error: styles.judge_error,
  skipped: styles.skipped,
};

export function StatusBadge({ status }: { status: string }) {
  return (
    <span className={`${styles.badge} ${TONE[status] ?? styles.neutral}`} data-status={status}>
      {statusLabel(status)}
    </span>
  );
}

/**
 * A result's reason as said beside its badge: a deferred result's stored reason starts
 * "deferred: …" (the CLI and reports print it alone), and the badge already says that word.
 */
export function badgeReason({ status, reason }: { status: string; reason: string }): string {
  const prefix = `${status}: `;
  return status === "deferred" && reason.startsWith(prefix) ? reason.slice(prefix.length) : reason;
}

const RUN_TONE: Record<RunTone, string | undefined> = {
  success: styles.passed,
  danger: styles.failed,
  warning: styles.judge_error,
  info: styles.neutral,
  neutral: styles.neutral,
};

/**
 * A run's badge: its state, and for a finished run whether its results held ("completed · 2
 * failed", not a green "completed").
 */
export function RunBadge({
  status,
  counts,
}: {
  status: string;
  counts: Record<EvalStatus, number>;
}) {
  const outcome = runOutcome(status, counts);
  return (
    <span
      className={`${styles.badge} ${RUN_TONE[outcome.tone] ?? styles.neutral}`}
      data-status={status}
      data-tone={outcome.tone}
    >
      {outcome.label}
    </span>
  );
}
