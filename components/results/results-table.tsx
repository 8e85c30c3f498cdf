"use client";
import Link from "next/link";
import { useVirtualizer } from "@tanstack/react-virtual";
import { useCallback, useEffect, useRef, useState, type KeyboardEvent } from "react";
import {
  decisionText,
  formatInt,
  formatMs,
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
  rowsHref,
  type ResultRowsResponse,
  type ResultRowView,
  type SortKey,
  type TableQuery,
} from "./results-query";
import { emptyResultsText, useLanded } from "./live-landed";
import { StatusBadge } from "./status-badge";
import styles from "./results-table.module.css";

// A run's results in one fixed-height scroller, however many there are: only
// the rows in view (and a few either side) are in the DOM, and rows are
// fetched from the server (`GET /api/runs/<id>/results`, filtered and sorted
// there) as they scroll into view, in blocks of FETCH_ROWS. The first rows
// come with the page, so the table shows before any script runs. The
// scrollbar spans every matching row, so dragging it to the end and then
// waiting fetches the last block only, not every block in between.
//
// Filters and sort are links (the URL is the state); the position is kept in
// the URL as `page=` (in pages of 50 rows) while scrolling, so a link or a
// reload opens the table where it was.

const ROW_HEIGHT = 40;
const HEADER_HEIGHT = 38;
const VIEW_HEIGHT = 600;
const FETCH_ROWS = 100;
/** Wait this long after the visible rows change before fetching: a fast scroll does not fetch every block it passes. */
const FETCH_DELAY_MS = 60;

const COLUMNS: { key: SortKey; label: string; num?: boolean; width: string }[] = [
  { key: "name", label: "Eval", width: "32%" },
  { key: "status", label: "Status", width: "12%" },
  { key: "score", label: "Score", num: true, width: "11%" },
  { key: "cost", label: "Cost", num: true, width: "9%" },
  { key: "latency", label: "Latency", num: true, width: "9%" },
];

type Block = "loading" | { error: string };

export interface ResultsTableProps {
  runId: string;
  query: TableQuery;
  /** Rows matching the filters, over all pages. */
  total: number;
  /** The rows the server rendered, starting at row `offset` (0-based). */
  initial: { offset: number; rows: ResultRowView[] };
}

export function ResultsTable({ runId, query, total: initialTotal, initial }: ResultsTableProps) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const rowsRef = useRef(new Map<number, ResultRowView>());
  const blocksRef = useRef(new Map<number, Block>());
  const [total, setTotal] = useState(initialTotal);
  // Results the live snapshot counts before a refresh has brought them here.
  const landed = useLanded(runId);
  const [, setVersion] = useState(0);
  const rerender = useCallback(() => setVersion((v) => v + 1), []);

  // The server's rows are the truth on first render and whenever the page is
  // refreshed (a running run's results land): fetched blocks may be stale then.
  const seeded = useRef<ResultsTableProps["initial"] | null>(null);
  if (seeded.current !== initial) {
    seeded.current = initial;
    rowsRef.current = new Map(initial.rows.map((row, i) => [initial.offset + i, row]));
    blocksRef.current = new Map();
  }
  useEffect(() => setTotal(initialTotal), [initialTotal, initial]);
  // Set once the script runs: until then the server's rows show, but scrolling fetches nothing
  // (browser tests wait for it).
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);

  const virtualizer = useVirtualizer({
    count: total,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 8,
    paddingStart: HEADER_HEIGHT,
    scrollPaddingStart: HEADER_HEIGHT,
    initialOffset: () => initial.offset * ROW_HEIGHT,
    // What the server renders, before the browser has measured the scroller.
    initialRect: { width: 1000, height: VIEW_HEIGHT },
  });
  const items = virtualizer.getVirtualItems();
  const firstIndex = items[0]?.index ?? 0;
  const lastIndex = items.at(-1)?.index ?? -1;

  const fetchBlock = useCallback(
    async (block: number) => {
      blocksRef.current.set(block, "loading");
      rerender();
      try {
        const response = await fetch(
          rowsHref({ runId, query, offset: block * FETCH_ROWS, limit: FETCH_ROWS }),
          { cache: "no-store" },
        );
        const body = (await response.json().catch(() => undefined)) as
          (ResultRowsResponse & { error?: { message: string } }) | undefined;
        if (!response.ok || !body || !Array.isArray(body.rows))
          throw new Error(body?.error?.message ?? `the server answered ${response.status}`);
        body.rows.forEach((row, i) => rowsRef.current.set(body.offset + i, row));
        blocksRef.current.delete(block);
        setTotal(body.total);
      } catch (error) {
        blocksRef.current.set(block, {
          error: error instanceof Error ? error.message : String(error),
        });
      }
      rerender();
    },
    [runId, query, rerender],
  );

  const retryFailed = () => {
    for (const [block, state] of blocksRef.current) if (state !== "loading") void fetchBlock(block);
  };

  // Fetch the blocks of the rows in view that are neither here nor on their way.
  useEffect(() => {
    if (lastIndex < 0) return;
    const timer = setTimeout(() => {
      for (
        let block = Math.floor(firstIndex / FETCH_ROWS);
        block <= Math.floor(lastIndex / FETCH_ROWS);
        block++
      ) {
        if (blocksRef.current.has(block)) continue;
        const from = block * FETCH_ROWS;
        const to = Math.min(lastIndex, from + FETCH_ROWS - 1);
        let missing = false;
        for (let i = Math.max(from, firstIndex); i <= to && !missing; i++)
          missing = !rowsRef.current.has(i);
        if (missing) void fetchBlock(block);
      }
    }, FETCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [firstIndex, lastIndex, fetchBlock]);

  // Keep the position in the URL (replaceState: no new history entry, no server round trip).
  const topRow = Math.max(0, Math.floor((virtualizer.scrollOffset ?? 0) / ROW_HEIGHT));
  const page = Math.floor(topRow / RESULTS_PAGE_SIZE) + 1;
  const isScrolling = virtualizer.isScrolling;
  useEffect(() => {
    if (isScrolling || typeof window === "undefined") return;
    const href = queryHref(runId, query, { page });
    if (`${window.location.pathname}${window.location.search}#results` !== href)
      window.history.replaceState(window.history.state, "", href);
  }, [page, isScrolling, runId, query]);

  // Keyboard: arrows, Page Up/Down, Home and End move between rows, fetching as they go.
  const pendingFocus = useRef<number | null>(null);
  const focusPending = useCallback(() => {
    const index = pendingFocus.current;
    if (index === null) return;
    const row = scrollRef.current?.querySelector<HTMLElement>(`tr[data-index="${index}"]`);
    if (!row) return;
    const link = row.querySelector<HTMLElement>("a");
    // A row still loading holds the focus until its link arrives.
    if (document.activeElement !== row || link) (link ?? row).focus({ preventScroll: true });
    if (link) pendingFocus.current = null;
  }, []);
  useEffect(focusPending);
  const onKeyDown = (event: KeyboardEvent<HTMLTableSectionElement>) => {
    const row = (event.target as HTMLElement).closest<HTMLElement>("tr[data-index]");
    if (!row) return;
    const index = Number(row.dataset.index);
    const perView = Math.max(1, Math.floor((VIEW_HEIGHT - HEADER_HEIGHT) / ROW_HEIGHT) - 1);
    const moves: Record<string, number> = {
      ArrowDown: index + 1,
      ArrowUp: index - 1,
      PageDown: index + perView,
      PageUp: index - perView,
      Home: 0,
      End: total - 1,
    };
    const target = moves[event.key];
    if (target === undefined) return;
    event.preventDefault();
    const next = Math.min(total - 1, Math.max(0, target));
    pendingFocus.current = next;
    virtualizer.scrollToIndex(next, { align: "auto" });
    focusPending();
  };

  if (total === 0) {
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

  const paddingTop = items.length ? items[0]!.start - HEADER_HEIGHT : 0;
  const paddingBottom = items.length ? virtualizer.getTotalSize() - items.at(-1)!.end : 0;
  const viewHeight = Math.min(VIEW_HEIGHT, HEADER_HEIGHT + total * ROW_HEIGHT + 2);
  const shownFirst = Math.min(total, topRow + 1);
  const shownLast = Math.min(
    total,
    Math.floor(((virtualizer.scrollOffset ?? 0) + viewHeight - HEADER_HEIGHT) / ROW_HEIGHT),
  );

  return (
    <>
      <div
        ref={scrollRef}
        className={styles.scroller}
        style={{ height: viewHeight }}
        data-testid="results-scroller"
        data-hydrated={hydrated ? "true" : undefined}
        role="region"
        aria-label={`Results: ${formatInt(total)} rows`}
        tabIndex={0}
      >
        <table className={styles.table} data-testid="results-table" aria-rowcount={total + 1}>
          <colgroup>
            {COLUMNS.map((c) => (
              <col key={c.key} style={{ width: c.width }} />
            ))}
            <col />
          </colgroup>
          <thead>
            <tr aria-rowindex={1} style={{ height: HEADER_HEIGHT }}>
              {COLUMNS.map((c) => {
                const active = query.sort === c.key;
                const dir = active && query.dir === "asc" ? "desc" : "asc";
                return (
                  <th
                    key={c.key}
                    className={c.num ? styles.num : undefined}
                    aria-sort={
                      active ? (query.dir === "asc" ? "ascending" : "descending") : undefined
                    }
                  >
                    <Link href={queryHref(runId, query, { sort: c.key, dir, page: 1 })}>
                      {c.label}
                      {active ? (query.dir === "asc" ? " ▲" : " ▼") : ""}
                    </Link>
                  </th>
                );
              })}
              <th>Reason</th>
            </tr>
          </thead>
          <tbody onKeyDown={onKeyDown}>
            {paddingTop > 0 ? (
              <tr aria-hidden="true" className={styles.spacer} style={{ height: paddingTop }} />
            ) : null}
            {items.map((item) => {
              const row = rowsRef.current.get(item.index);
              if (!row) {
                const block = blocksRef.current.get(Math.floor(item.index / FETCH_ROWS));
                const failed = block && block !== "loading" ? block.error : undefined;
                return (
                  <tr
                    key={item.index}
                    data-index={item.index}
                    aria-rowindex={item.index + 2}
                    tabIndex={-1}
                    style={{ height: ROW_HEIGHT }}
                    data-testid={failed ? "results-error-row" : "results-loading-row"}
                  >
                    <td colSpan={COLUMNS.length + 1} className={styles.muted}>
                      {failed ? (
                        <>
                          Rows could not be loaded: {failed}.{" "}
                          <button type="button" className={styles.retry} onClick={retryFailed}>
                            Retry
                          </button>
                        </>
                      ) : (
                        <span className={styles.loading}>
                          Loading row {formatInt(item.index + 1)}…
                        </span>
                      )}
                    </td>
                  </tr>
                );
              }
              return (
                <tr
                  key={item.index}
                  data-index={item.index}
                  aria-rowindex={item.index + 2}
                  style={{ height: ROW_HEIGHT }}
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
                  <td className={styles.num}>{formatMs(row.latencyMs)}</td>
                  <td className={styles.muted} title={row.reason}>
                    <div className={styles.reasonText} data-testid="result-reason-cell">
                      {row.reason}
                    </div>
                  </td>
                </tr>
              );
            })}
            {paddingBottom > 0 ? (
              <tr aria-hidden="true" className={styles.spacer} style={{ height: paddingBottom }} />
            ) : null}
          </tbody>
        </table>
      </div>
      <p className={styles.range} data-testid="results-range">
        Rows {formatInt(shownFirst)}–{formatInt(Math.max(shownFirst, shownLast))} of{" "}
        {formatInt(total)}
        <span className={styles.muted}>
          {" "}
          · scroll, or use the arrow keys, Page Up/Down, Home and End on a row
        </span>
      </p>
    </>
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
