import styles from "./results.module.css";
import { badgeReason, StatusBadge } from "./status-badge";

// A result page's status line: the badge, its reason beside it (as the run page's table gives
// it), and the result's note on the line below only when it says more than the reason. A
// deferred result's note is its reason's cause ("deferred: no judge key…" / "no judge key…"),
// and a result the database refused has the same text in both: said once, beside the badge.
// The badge says "deferred", so the reason beside it drops its own "deferred: " (badgeReason).

export function ResultStatus({
  result,
}: {
  result: { status: string; reason: string; note?: string | null };
}) {
  const note = result.note?.trim();
  const extra = note && !result.reason.includes(note) ? note : null;
  return (
    <>
      <p>
        <StatusBadge status={result.status} />{" "}
        <span data-testid="result-reason">{badgeReason(result)}</span>
      </p>
      {extra ? (
        <p className={styles.muted} data-testid="result-note">
          {extra}
        </p>
      ) : null}
    </>
  );
}
