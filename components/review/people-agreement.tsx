import Link from "next/link";
import type { CalibrationResult } from "../../lib/engine/results/trust";
import type { PeopleAgreement as PeopleAgreementRow } from "../../lib/engine/trust/people/people-agreement";
import styles from "../results/results.module.css";

// The agreement view's people row: per criterion, how far the judges agree
// with the labels people gave this run's results (Cohen's κ with its
// bootstrap 95% interval, MAE), beside the judge-vs-judge statistics above.

const fixed = (x: number | null | undefined, digits = 2) =>
  x === null || x === undefined ? "—" : x.toFixed(digits);

function Head({ numbers, after }: { numbers: string[]; after: string[] }) {
  return (
    <thead>
      <tr>
        <th>Eval</th>
        <th>Criterion</th>
        {numbers.map((n) => (
          <th key={n} className={styles.num}>
            {n}
          </th>
        ))}
        {after.map((n) => (
          <th key={n} className={n === "MAE" ? styles.num : undefined}>
            {n}
          </th>
        ))}
      </tr>
    </thead>
  );
}

export function PeopleAgreement({
  result,
  suiteId,
}: {
  result: CalibrationResult;
  suiteId: string;
}) {
  return (
    <section className={styles.section} data-testid="people-agreement">
      <h2>People × judges</h2>
      <p className={styles.muted}>
        Labels given in the <Link href={`/suites/${suiteId}/review`}>review queue</Link> to this
        run&apos;s results, against the judges&apos; combined verdict.
      </p>
      <table className={styles.table}>
        <Head numbers={["Labels", "Cohen's κ"]} after={["95% CI", "MAE"]} />
        <tbody>
          {result.criteria.map((c) => (
            <tr
              key={`${c.eval}\u0000${c.item}`}
              data-testid="people-agreement-row"
              data-item={c.item}
            >
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
              <td>
                {c.kappa.ci95 ? `${fixed(c.kappa.ci95.low)} to ${fixed(c.kappa.ci95.high)}` : "—"}
              </td>
              <td className={styles.num}>{fixed(c.mae, 3)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

/**
 * People × people: where an item was offered to a second reviewer, how far the two people agree
 * (Krippendorff's α with its bootstrap 95% interval, exact agreement).
 */
export function PeoplePeopleAgreement({ rows }: { rows: PeopleAgreementRow[] }) {
  return (
    <section className={styles.section} data-testid="people-people-agreement">
      <h2>People × people</h2>
      <p className={styles.muted}>
        Items offered to a second reviewer on purpose (the suite&apos;s{" "}
        <code>review: {"{ second_opinion_rate }"}</code>), labelled by two different people.
        Categorical answers (a category, a decision, a pair&apos;s winner, pass / fail) are compared
        as nominal, scores as intervals.
      </p>
      <table className={styles.table}>
        <Head numbers={["Items", "Exact", "Krippendorff's α"]} after={["95% CI"]} />
        <tbody>
          {rows.map((r) => (
            <tr key={`${r.eval}\u0000${r.item}`} data-testid="people-people-row" data-item={r.item}>
              <td>{r.eval}</td>
              <td>{r.item}</td>
              <td className={styles.num} data-testid="people-people-units">
                {r.units}
              </td>
              <td className={styles.num} data-testid="people-people-exact">
                {fixed(r.exact)}
              </td>
              <td className={styles.num} data-testid="people-people-alpha" title={r.alpha.note}>
                {fixed(r.alpha.value, 3)}
              </td>
              <td>
                {r.alpha.ci95 ? `${fixed(r.alpha.ci95.low)} to ${fixed(r.alpha.ci95.high)}` : "—"}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
