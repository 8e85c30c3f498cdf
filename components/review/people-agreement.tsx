import Link from "next/link";
import type { CalibrationResult } from "../../lib/engine/results/trust";
import styles from "../results/results.module.css";

// The agreement view's people row: per criterion, how far the judges agree
// with the labels people gave this run's results (Cohen's κ with its
// bootstrap 95% interval, MAE), beside the judge-vs-judge statistics above.

const fixed = (x: number | null | undefined, digits = 2) => (x === null || x === undefined ? "—" : x.toFixed(digits));

export function PeopleAgreement({ result, suiteId }: { result: CalibrationResult; suiteId: string }) {
  return (
    <section className={styles.section} data-testid="people-agreement">
      <h2>People × judges</h2>
      <p className={styles.muted}>
        Labels given in the <Link href={`/suites/${suiteId}/review`}>review queue</Link> to this run&apos;s results, against the judges&apos; combined verdict.
      </p>
      <table className={styles.table}>
        <thead>
          <tr>
            <th>Eval</th>
            <th>Criterion</th>
            <th className={styles.num}>Labels</th>
            <th className={styles.num}>Cohen&apos;s κ</th>
            <th>95% CI</th>
            <th className={styles.num}>MAE</th>
          </tr>
        </thead>
        <tbody>
          {result.criteria.map((c) => (
            <tr key={`${c.eval}\u0000${c.item}`} data-testid="people-agreement-row" data-item={c.item}>
              <td>{c.eval}</td>
              <td>{c.item}</td>
              <td className={styles.num}>{c.graded}</td>
              <td className={styles.num} data-testid="people-kappa">
                {/* Undefined for too few labels or one category only: "n/a" and why, as the judge-agreement table reads it. */}
                {c.kappa.value === null ? (
                  <>
                    n/a<div className={styles.muted}>{c.kappa.note}</div>
                  </>
                ) : (
                  fixed(c.kappa.value, 3)
                )}
              </td>
              <td>{c.kappa.ci95 ? `${fixed(c.kappa.ci95.low)} to ${fixed(c.kappa.ci95.high)}` : "—"}</td>
              <td className={styles.num}>{fixed(c.mae, 3)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
