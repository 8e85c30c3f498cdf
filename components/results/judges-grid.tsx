import type { EvalResult, JudgeGrade } from "@/lib/engine/results/report";
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
            <StatusBadge
              status={
                j.error
                  ? "judge_error"
                  : j.passed === null
                    ? "skipped"
                    : j.passed
                      ? "passed"
                      : "failed"
              }
            />
          </div>
          <div className={styles.facts}>
            <span data-testid="judge-model">
              model {j.model}
              {j.provider ? ` · provider ${j.provider}` : ""}
            </span>
            <span>score {formatScore(j.score)}</span>
          </div>
          {j.error ? <p className={styles.reasoning}>{j.error}</p> : null}
          {j.treePath && j.treePath.length ? <TreePath path={j.treePath} /> : null}
        </div>
      ))}
    </div>
  );
}

/**
 * The judge models of a result with the provider each was served by, where recorded:
 * "claude-haiku-4-5 (anthropic), local:qwen3-8b (local)".
 */
export function judgeModelsText(judge: EvalResult["judge"]): string {
  return judge.models
    .map((m) => (judge.providers?.[m] ? `${m} (${judge.providers[m]})` : m))
    .join(", ");
}
