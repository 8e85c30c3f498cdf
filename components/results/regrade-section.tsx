import Link from "next/link";
import { formatTime } from "./format";
import { RegradeForm, type RegradeVersionOption } from "./regrade-form";
import styles from "./results.module.css";

// The run page's regrade section: a regrade says what it re-graded (its source
// run, linked) and links to its flips; a finished run offers Re-grade with….

export interface RegradeSectionProps {
  runId: string;
  /** Finished runs can be re-graded; a queued or running one not yet. */
  finished: boolean;
  /** This run is a regrade of that run. */
  source?: { id: string; createdAt: string; version: number; judges?: string[] };
  /** What Re-grade with… left out when it queued this run. */
  notes: string[];
  versions: RegradeVersionOption[];
  runVersionId: string;
  models: string[];
}

export function RegradeSection(props: RegradeSectionProps) {
  return (
    <>
      {props.source ? (
        <section className={styles.section} data-testid="regrade-of">
          <p>
            Re-grade of{" "}
            <Link href={`/runs/${props.source.id}`} data-testid="regrade-source">
              run {props.source.id.slice(0, 8)}
            </Link>{" "}
            <span className={styles.muted}>
              (v{props.source.version}, {formatTime(props.source.createdAt)}): its stored candidates
              graded again
              {props.source.judges?.length ? (
                <>
                  {" "}
                  by <strong data-testid="regrade-judges">{props.source.judges.join(", ")}</strong>
                </>
              ) : null}
              , with no generation or agent call.
            </span>{" "}
            <Link href={`/runs/${props.runId}/flips`} data-testid="flips-link">
              What flipped →
            </Link>
          </p>
          {props.notes.map((note) => (
            <p key={note} className={styles.muted} data-testid="regrade-note">
              {note}
            </p>
          ))}
        </section>
      ) : null}
      {props.finished && props.versions.length ? (
        <section className={styles.section}>
          <h2>Re-grade with…</h2>
          <p className={styles.muted}>
            This run&apos;s candidates graded again by a version of the suite or another judge
            model: no generation or agent call, and the evals whose rubric did not change come from
            the judge cache at no cost. Then see which verdicts flipped.
          </p>
          <RegradeForm
            runId={props.runId}
            versions={props.versions}
            runVersionId={props.runVersionId}
            models={props.models}
          />
        </section>
      ) : null}
    </>
  );
}
