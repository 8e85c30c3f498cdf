import styles from "./results.module.css";

/**
 * The known-good answers and context a judge was given beside a generated or live candidate
 * (reference-guided grading): on the result page, and on the labelling page before the label (it is
 * the item's data, not the judges' answer).
 */
export function ReferenceView({
  reference,
}: {
  reference: { expectedOutputs: string[]; context: string[] };
}) {
  const several = reference.expectedOutputs.length > 1;
  return (
    <section className={styles.section} data-testid="reference">
      <h2>Reference</h2>
      <p className={styles.muted}>
        The known-good {several ? "answers" : "answer"} the judge was given beside the candidate
        {several ? " (any one is acceptable)" : ""}; the candidate need not match its wording.
      </p>
      {reference.expectedOutputs.map((text, i) => (
        <div key={`o${i}`} className={styles.candidate}>
          {text}
        </div>
      ))}
      {reference.context.length ? <h3>Context</h3> : null}
      {reference.context.map((text, i) => (
        <div key={`c${i}`} className={styles.candidate}>
          {text}
        </div>
      ))}
    </section>
  );
}
