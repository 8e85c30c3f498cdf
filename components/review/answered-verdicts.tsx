"use client";
import { useState } from "react";
import type { JudgeSaid } from "../../lib/engine/trust/people/review-subject";
import results from "../results/results.module.css";
import styles from "./review.module.css";

/** The judges' verdicts on a labelled item, behind a toggle: the labelling page has them only once the person has answered. */
export function AnsweredVerdicts({ verdicts }: { verdicts: JudgeSaid[] }) {
  const [shown, setShown] = useState(false);
  return (
    <section className={results.section}>
      <button
        type="button"
        className={`${styles.button} ${styles.secondary}`}
        onClick={() => setShown((s) => !s)}
        data-testid="toggle-verdicts"
      >
        {shown ? "Hide" : "Show"} the judges&apos; verdicts
      </button>
      {shown ? (
        <div className={results.verdicts} data-testid="judge-verdicts">
          {verdicts.map((v, i) => (
            <div key={i} className={results.verdict} data-testid="judge-verdict">
              <strong>{v.judge}</strong>: {v.said}
              {v.reasoning ? <p className={results.reasoning}>{v.reasoning}</p> : null}
            </div>
          ))}
        </div>
      ) : null}
    </section>
  );
}
