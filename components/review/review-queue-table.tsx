"use client";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { REVIEW_REASON_LABELS } from "../../lib/engine/trust/people/needs-person";
import results from "../results/results.module.css";
import { ReviewerField } from "./reviewer-field";
import type { QueueRow } from "./review-types";
import styles from "./review.module.css";
import { postJson, useReviewer } from "./use-reviewer";

/** The queue: each item with why it is there, the run it came from and who holds it; "Label" claims it and opens the labelling page. */
export function ReviewQueueTable({
  suiteId,
  rows,
  sessionName,
  query,
}: {
  suiteId: string;
  rows: QueueRow[];
  sessionName: string | null;
  query: string;
}) {
  const router = useRouter();
  const reviewer = useReviewer(sessionName);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState<string | null>(null);

  async function claim(row: QueueRow) {
    if (!reviewer.name) return;
    setBusy(row.id);
    const claimed = await postJson(`/api/review/${row.id}/claim`, { reviewer: reviewer.name });
    setBusy(null);
    if (claimed.ok) router.push(`/suites/${suiteId}/review/${row.id}${query}`);
    else setErrors((e) => ({ ...e, [row.id]: claimed.message }));
  }

  return (
    <>
      <ReviewerField {...reviewer} />
      <table className={results.table} data-testid="review-queue">
        <thead>
          <tr>
            <th>Why</th>
            <th>Eval</th>
            <th>Criterion</th>
            <th>From</th>
            <th>Detail</th>
            <th>State</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {/* An item this person labelled already waits for someone else's second opinion: not theirs to take. */}
          {rows
            .filter((row) => !reviewer.name || !row.labelledBy.includes(reviewer.name))
            .map((row) => (
              <tr
                key={row.id}
                data-testid="review-item"
                data-item-id={row.id}
                data-second-opinion={row.labelsWanted > 1 ? "yes" : undefined}
                data-reason={row.reason}
                data-criterion={row.criterion}
                data-eval={row.evalName}
              >
                <td>
                  <span className={styles.reason}>{REVIEW_REASON_LABELS[row.reason]}</span>
                </td>
                {/* No link to the result or the calibration: they show what the judges said, which waits for the label. */}
                <td>
                  {row.evalName}
                  {row.cell ? (
                    <div className={styles.hint} data-testid="review-cell">
                      {row.cell}
                    </div>
                  ) : null}
                </td>
                <td>{row.criterion}</td>
                <td className={styles.hint} data-testid="review-run">
                  {row.from}
                </td>
                <td className={styles.detail} data-testid="review-detail">
                  {row.detail}
                </td>
                <td data-testid="review-state">
                  {row.state === "claimed" ? `claimed by ${row.claimedBy ?? "someone"}` : row.state}
                  {row.labelsWanted > 1
                    ? ` · second opinion (${row.labelledBy.length} of ${row.labelsWanted} labels)`
                    : ""}
                </td>
                <td>
                  <button
                    type="button"
                    className={styles.button}
                    disabled={!reviewer.name || busy === row.id}
                    onClick={() => void claim(row)}
                    data-testid="claim"
                  >
                    Label
                  </button>
                  {errors[row.id] ? (
                    <div className={styles.notice} role="alert" data-testid="claim-error">
                      {errors[row.id]}
                    </div>
                  ) : null}
                </td>
              </tr>
            ))}
        </tbody>
      </table>
    </>
  );
}
