import styles from "./results.module.css";

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
      {LABELS[status] ?? status}
    </span>
  );
}
