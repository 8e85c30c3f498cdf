import type { EvalStatus, OutcomeCounts } from "@/lib/engine/results/report";
import { skippedCountLabel } from "@/lib/engine/results/skip-kind";
import styles from "./results.module.css";

// The five outcome counts, in the order the CLI and every reporter use.
const ORDER: { status: EvalStatus; label: string }[] = [
  { status: "passed", label: "Passed" },
  { status: "failed", label: "Failed" },
  { status: "deferred", label: "Deferred" },
  { status: "judge_error", label: "Judge errors" },
  { status: "skipped", label: "Skipped" },
];

/** "Skipped (cancelled)", "Skipped (2 budget, 1 cancelled)": the cause, when the counts know it. */
function labelOf(status: EvalStatus, label: string, counts: OutcomeCounts): string {
  if (status !== "skipped") return label;
  const text = skippedCountLabel(counts.skippedBy);
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export function StatusCounts({ counts }: { counts: OutcomeCounts }) {
  return (
    <>
      {ORDER.map(({ status, label }) => (
        <div className={styles.stat} key={status} data-testid={`count-${status}`}>
          <div className={styles.label}>{labelOf(status, label, counts)}</div>
          <div className={`${styles.value}`}>{counts[status]}</div>
        </div>
      ))}
    </>
  );
}

export function Stat({
  label,
  value,
  detail,
  testId,
}: {
  label: string;
  value: string;
  detail?: string;
  testId?: string;
}) {
  return (
    <div className={styles.stat} data-testid={testId}>
      <div className={styles.label}>{label}</div>
      <div className={styles.value}>{value}</div>
      {detail ? <div className={styles.statDetail}>{detail}</div> : null}
    </div>
  );
}
