import Link from "next/link";
import type { JudgeDisagreement } from "@/lib/engine/trust/agreement/judge-disagreements";
import { resultHref } from "./results-query";
import styles from "./results.module.css";
import trust from "./trust.module.css";

// Where the judges split, each judge's rating and reasoning side by side, with
// a link to the result. Reasoning is model output: rendered as text.
export function DisagreementList({
  runId,
  rows,
  limit,
  total = rows.length,
}: {
  runId: string;
  rows: JudgeDisagreement[];
  limit: number;
  /** How many there are in all (a run keeps its first few hundred: lib/store/agreement-figures.ts). */
  total?: number;
}) {
  const shown = rows.slice(0, limit);
  return (
    <div data-testid="disagreements">
      {shown.map((d) => (
        <div
          className={styles.card}
          key={`${d.resultId}\u0000${d.item}`}
          data-testid="disagreement"
        >
          <div className={styles.cardHead}>
            <Link
              className={styles.rowLink}
              href={resultHref(runId, d.resultId)}
              data-testid="disagreement-result"
            >
              {d.resultName}
            </Link>
            <span className={styles.muted}>criterion</span>{" "}
            <strong data-testid="disagreement-item">{d.item}</strong>
            {d.splitDecision ? <span className={trust.flag}>pass/fail split</span> : null}
            <span className={styles.muted}>
              spread {d.level === "interval" ? d.spread.toFixed(2) : d.spread}
            </span>
          </div>
          <div className={trust.side}>
            {d.verdicts.map((v) => (
              <div
                className={styles.verdict}
                key={v.judge}
                data-testid="disagreement-verdict"
                data-judge={v.judge}
              >
                <div className={styles.cardHead}>
                  {v.resultId ? (
                    // A verdict from another matrix cell (another judge model on the same candidate): its own result.
                    <Link
                      className={styles.rowLink}
                      href={resultHref(runId, v.resultId)}
                      data-testid="verdict-result"
                    >
                      <strong>{v.judge}</strong>
                    </Link>
                  ) : (
                    <strong>{v.judge}</strong>
                  )}
                  {v.provider ? <span className={styles.muted}>{v.provider}</span> : null}
                  <span
                    className={`${styles.badge} ${v.passed ? styles.passed : styles.failed}`}
                    data-testid="verdict-label"
                  >
                    {v.label}
                  </span>
                </div>
                <p className={styles.reasoning} data-testid="verdict-reasoning">
                  {v.reasoning || "(no reasoning recorded)"}
                </p>
              </div>
            ))}
          </div>
        </div>
      ))}
      {total > shown.length ? (
        <p className={styles.muted} data-testid="disagreements-shown">
          Showing {shown.length} of {total} disagreements.
        </p>
      ) : null}
    </div>
  );
}
