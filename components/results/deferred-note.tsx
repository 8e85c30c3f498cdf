import { formatInt } from "./format";

// Under the run's header: why results were not graded, so a run started
// without a judge key (every eval deferred) says so where one looks first,
// not only in each row's Reason cell.

export interface DeferReason {
  reason: string;
  count: number;
}

export function DeferredNote({
  reasons,
  deferred,
  total,
}: {
  reasons: readonly DeferReason[];
  deferred: number;
  total: number;
}) {
  if (deferred === 0 || reasons.length === 0) return null;
  const head =
    deferred === total
      ? "Nothing was graded: every result deferred"
      : `${formatInt(deferred)} of ${formatInt(total)} results deferred`;
  return (
    <div className="notice notice-warning" role="status" data-testid="deferred-note">
      <strong>{head}.</strong>{" "}
      {reasons.length === 1 ? (
        <span>{reasons[0]!.reason}</span>
      ) : (
        <ul>
          {reasons.map((r) => (
            <li key={r.reason}>
              {r.reason} ({formatInt(r.count)})
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
