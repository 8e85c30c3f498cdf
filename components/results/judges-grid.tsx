import type { JudgeGrade } from "@/lib/engine/results/report";
import { formatScore } from "./format";
import { StatusBadge } from "./status-badge";
import { TreePath } from "./tree-path";
import styles from "./results.module.css";

// Each juror's or panel model's grade of the whole rubric, side by side, so a
// split decision is visible at a glance.
export function JudgesGrid({ judges }: { judges: JudgeGrade[] }) {
  return (
    <div className={styles.verdicts} data-testid="judges">
      {judges.map((j, i) => (
        <div className={styles.verdict} key={`${j.judge}-${i}`}>
          <div className={styles.cardHead}>
            <strong>{j.judge}</strong>
            <StatusBadge status={j.error ? "judge_error" : j.passed === null ? "skipped" : j.passed ? "passed" : "failed"} />
          </div>
          <div className={styles.facts}>
            <span>model {j.model}</span>
            <span>score {formatScore(j.score)}</span>
          </div>
          {j.error ? <p className={styles.reasoning}>{j.error}</p> : null}
          {j.treePath && j.treePath.length ? <TreePath path={j.treePath} /> : null}
        </div>
      ))}
    </div>
  );
}
