"use client";
import Link from "next/link";
import { useEffect, useState } from "react";
import {
  decisionText,
  formatInt,
  formatLatency,
  formatScaled,
  formatUsd,
  splitCellName,
  winnerText,
} from "./format";
import {
  cellFilter,
  queryHref,
  RESULTS_PAGE_SIZE,
  resultHref,
  type ResultRowsResponse,
  type ResultRowView,
  type SortKey,
  type TableQuery,
} from "./results-query";
import { emptyResultsText, useLanded } from "./live-landed";
import { EvalSortLinks, SortLink } from "./sort-links";
import { badgeReason, StatusBadge } from "./status-badge";
import styles from "./results-table.module.css";

// A run's results one page at a time, however many there are: the server renders the page
// (filtered and sorted there), and the pager's links carry keyset cursors (the page after its last
// row, before its first, the last page), so a deep page of a million results is read from the
// index where it starts, as fast as the first. Filters, sort and position are links: the URL is
// the state, so a link or a reload opens the same page, and the browser's Back returns to the
// page before.

// The Eval column sorts in the suite's order (the default, as the CLI and the CSV list a run:
// i2 before i10), and by name alphabetically from its "sort A–Z" link; its header says which
// order the rows are in ("Eval, suite order ▲", "Eval, A–Z ▲").
const COLUMNS: { key: SortKey; label: string; num?: boolean; width: string }[] = [
  { key: "order", label: "Eval", width: "32%" },
  { key: "status", label: "Status", width: "12%" },
  { key: "score", label: "Score", num: true, width: "11%" },
  { key: "cost", label: "Cost", num: true, width: "9%" },
  { key: "latency", label: "Latency", num: true, width: "9%" },
];

export interface ResultsTableProps {
  runId: string;
  query: TableQuery;
  /** The page the server read: its rows, the place of the first (0-based), the total and the cursors either side. */
  page: ResultRowsResponse;
}

export function ResultsTable({ runId, query, page }: ResultsTableProps) {
  const { total, firstIndex, rows } = page;
  // Results the live snapshot counts before a refresh has brought them here.
  const landed = useLanded(runId);
  // Set once the script runs (browser tests wait for it before they click).
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  // The page a pager link asked for, until the server's render of it arrives (seconds for a deep
  // page of a big run): said at once, the pager disabled, rather than the old page looking current.
  const [pending, setPending] = useState<string | null>(null);
  useEffect(() => setPending(null), [page]);

  if (total === 0 || rows.length === 0) {
    return (
      <div className={styles.empty} data-testid="results-empty">
        {emptyResultsText({
          filtered: Boolean(query.status || query.q),
          cell: cellFilter(query) !== undefined,
          landed,
        })}
      </div>
    );
  }

  const shownFirst = firstIndex + 1;
  const shownLast = firstIndex + rows.length;
  const atStart = page.prevCursor === null;
  const atEnd = page.nextCursor === null;
  const rowsText = (from: number, to: number) =>
    `Loading rows ${formatInt(Math.max(1, from))}–${formatInt(Math.min(total, to))}…`;
  const size = RESULTS_PAGE_SIZE;
  const link = (href: string | null, loading: string) => ({
    href,
    pending: pending !== null,
    onOpen: () => setPending(loading),
  });
  const pager = (
    <nav className={styles.pager} aria-label="Result pages" data-testid="results-pager">
      <PagerLink
        {...link(atStart ? null : queryHref(runId, query, {}), rowsText(1, size))}
        label="« First"
        testId="page-first"
      />
      <PagerLink
        {...link(
          page.prevCursor ? queryHref(runId, query, {}, { before: page.prevCursor }) : null,
          rowsText(firstIndex - size + 1, firstIndex),
        )}
        label="‹ Previous"
        testId="page-previous"
      />
      <PagerLink
        {...link(
          page.nextCursor ? queryHref(runId, query, {}, { after: page.nextCursor }) : null,
          rowsText(shownLast + 1, shownLast + size),
        )}
        label="Next ›"
        testId="page-next"
      />
      <PagerLink
        {...link(
          atEnd ? null : queryHref(runId, query, {}, { last: true }),
          rowsText(total - size + 1, total),
        )}
        label="Last »"
        testId="page-last"
      />
    </nav>
  );

  return (
    <>
      <div
        className={styles.scroller}
        data-testid="results-scroller"
        data-hydrated={hydrated ? "true" : undefined}
        role="region"
        aria-label={`Results: ${formatInt(total)} rows`}
      >
        <table className={styles.table} data-testid="results-table" aria-rowcount={total + 1}>
          <colgroup>
            {COLUMNS.map((c) => (
              <col key={c.key} style={{ width: c.width }} />
            ))}
            <col />
          </colgroup>
          <thead>
            <tr aria-rowindex={1}>
              {COLUMNS.map((c) => {
                const byName = c.key === "order" && query.sort === "name";
                const active = query.sort === c.key || byName;
                return (
                  <th
                    key={c.key}
                    className={c.num ? styles.num : undefined}
                    aria-sort={
                      active ? (query.dir === "asc" ? "ascending" : "descending") : undefined
                    }
                  >
                    {c.key === "order" ? (
                      <EvalSortLinks runId={runId} query={query} />
                    ) : (
                      <SortLink runId={runId} query={query} sort={c.key} label={c.label} />
                    )}
                  </th>
                );
              })}
              <th>Reason</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row, i) => (
              <tr
                key={row.resultKey}
                aria-rowindex={firstIndex + i + 2}
                data-testid="result-row"
                data-status={row.status}
              >
                <td title={row.name} className={styles.nameCell}>
                  <NameCell name={row.name} href={resultHref(runId, row.resultKey)} />
                </td>
                <td>
                  <StatusBadge status={row.status} />
                  {row.vacuous ? <span className={styles.muted}> vacuous</span> : null}
                </td>
                <td className={styles.num} data-testid="result-score-cell">
                  <ScoreCell row={row} />
                </td>
                <td className={styles.num}>{formatUsd(row.costUsd)}</td>
                <td className={styles.num} data-testid="result-latency-cell">
                  {formatLatency(row)}
                </td>
                <td className={styles.muted} title={row.reason}>
                  <div className={styles.reasonText} data-testid="result-reason-cell">
                    {badgeReason(row)}
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className={styles.range} data-testid="results-range" aria-live="polite">
        {pending ?? `Rows ${formatInt(shownFirst)}–${formatInt(shownLast)} of ${formatInt(total)}`}
      </p>
      {atStart && atEnd ? null : pager}
    </>
  );
}

/** A column's sort link: ascending first, the other way round once it is the sort, its arrow then shown. */
/** A pager link, or its label greyed out where there is no such page or one is loading. */
function PagerLink({
  href,
  label,
  testId,
  pending,
  onOpen,
}: {
  href: string | null;
  label: string;
  testId: string;
  pending: boolean;
  onOpen: () => void;
}) {
  if (href && pending)
    return (
      <span className={styles.muted} aria-disabled="true" data-testid={testId}>
        {label}
      </span>
    );
  return href ? (
    <Link
      href={href}
      data-testid={testId}
      prefetch={false}
      onClick={(event) => {
        // A new tab or window loads nothing here.
        if (!event.metaKey && !event.ctrlKey && !event.shiftKey && event.button === 0) onOpen();
      }}
    >
      {label}
    </Link>
  ) : (
    <span className={styles.muted} aria-disabled="true" data-testid={testId}>
      {label}
    </span>
  );
}

/** The eval's name, and its matrix cell on a second line: two cells of one eval never read the same. */
function NameCell({ name, href }: { name: string; href: string }) {
  const parts = splitCellName(name);
  return (
    <Link className={styles.rowLink} href={href} prefetch={false}>
      {parts.eval}
      {parts.cell ? <span className={styles.cellName}> [{parts.cell}]</span> : null}
    </Link>
  );
}

/** A score against its threshold; a comparison's winner or a review's decision where there is no threshold to meet. */
export function ScoreCell({
  row,
}: {
  row: Pick<ResultRowView, "score" | "threshold" | "comparison" | "decision"> &
    Partial<Pick<ResultRowView, "scale" | "status">>;
}) {
  if (row.comparison)
    return (
      <span data-outcome="winner">
        winner {winnerText(row.comparison.winner, row.comparison.labels)}
      </span>
    );
  if (row.decision)
    return <span data-outcome="decision">decision: {decisionText(row.decision)}</span>;
  return (
    <>
      {formatScaled(
        row.score,
        row.scale,
        row.status === "passed" ? true : row.status === "failed" ? false : undefined,
      )}{" "}
      <span className={styles.muted}>/ {formatScaled(row.threshold, row.scale, true)}</span>
    </>
  );
}
