import { CandidateView } from "../results/candidate-view";
import { ReferenceView } from "../results/reference-view";
import results from "../results/results.module.css";
import type { LabelSubject } from "./review-types";
import styles from "./review.module.css";

// What the label form shows a person about the item: the text to label (its
// prompt, the reference the judge was given, the candidate), and the question
// with the suite's anchors for it. The judges' evidence is highlighted only
// once the label is saved (the caller passes none before).

/** The prompt, the reference and the candidate, with the judges' evidence spans highlighted. */
export function LabelledText(props: {
  subject: LabelSubject;
  criterion: string;
  evidence: string[];
}) {
  const { subject, criterion, evidence } = props;
  return (
    <div>
      {subject.prompt ? (
        <section className={results.section}>
          <h2>Prompt</h2>
          <div className={results.candidate}>{subject.prompt}</div>
        </section>
      ) : null}
      {subject.reference ? <ReferenceView reference={subject.reference} /> : null}
      <section className={results.section}>
        <h2>Candidate{evidence.length ? " (the judges' evidence highlighted)" : ""}</h2>
        <CandidateView
          text={subject.candidate}
          sources={evidence.map((span) => ({ index: 0, evidence: span }))}
          names={[criterion]}
        />
      </section>
    </div>
  );
}

/** The criterion, what it asks, and its anchors in the suite. */
export function LabelQuestion(props: { subject: LabelSubject; criterion: string }) {
  const { subject, criterion } = props;
  return (
    <section className={results.section}>
      <h2>{criterion}</h2>
      <p className={results.reasoning} data-testid="label-asks">
        {subject.asks}
      </p>
      {subject.anchors.length ? (
        <div data-testid="label-anchors">
          <p className={styles.hint}>Anchors in the suite:</p>
          {subject.anchors.map((a, i) => (
            <p key={i} className={results.quote}>
              {a.response} → {a.score.toFixed(2)}
            </p>
          ))}
        </div>
      ) : null}
    </section>
  );
}
