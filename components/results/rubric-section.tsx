import type { EvalResult } from "@/lib/engine/results/report";
import styles from "./results.module.css";

/**
 * The result page's Rubric section: a free-form rubric's text and, for a deferred result (no
 * criterion rows, since nothing was graded), the criteria that would have been graded, as the
 * stored result names them. Nothing when the result stores neither.
 */
export function RubricSection({ rubric }: { rubric: EvalResult["rubric"] }) {
  const criteria = rubric.criteria ?? [];
  if (!rubric.text && criteria.length === 0) return null;
  return (
    <section className={styles.section} data-testid="rubric-section">
      <h2>Rubric</h2>
      {rubric.text ? <p className={styles.reasoning}>{rubric.text}</p> : null}
      {criteria.length ? (
        <>
          <p className={styles.muted}>Not graded: the criteria a judge would have graded.</p>
          <ol data-testid="rubric-criteria">
            {criteria.map((c) => (
              <li key={c.name}>
                <strong>{c.name}</strong>
                {c.description ? ` — ${c.description}` : null}
              </li>
            ))}
          </ol>
        </>
      ) : null}
    </section>
  );
}
