import type { EvalStatus } from "@/lib/engine/report";
import styles from "./results.module.css";

// The five outcome counts, in the order the CLI and every reporter use.
const ORDER: { status: EvalStatus; label: string }[] = [
  { status: "passed", label: "Passed" },
  { status: "failed", label: "Failed" },
  { status: "deferred", label: "Deferred" },
  { status: "judge_error", label: "Judge errors" },
  { status: "skipped", label: "Skipped (budget)" },
];

export function StatusCounts({ counts }: { counts: Record<EvalStatus, number> }) {
  return (
    <>
      {ORDER.map(({ status, label }) => (
        <div className={styles.stat} key={status} data-testid={`count-${status}`}>
          <div className={styles.label}>{label}</div>
          <div className={`${styles.value}`}>{counts[status]}</div>
        </div>
      ))}
    </>
  );
}

export function Stat({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <div className={styles.stat} data-testid={testId}>
      <div className={styles.label}>{label}</div>
      <div className={styles.value}>{value}</div>
    </div>
  );
}
