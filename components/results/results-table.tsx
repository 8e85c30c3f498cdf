import Link from "next/link";
import { formatMs, formatScore, formatUsd } from "./format";
import { StatusBadge } from "./status-badge";
import styles from "./results.module.css";

/** One row of a run's results page (plain data, mapped from the store's ResultRow). */
export interface ResultRowView {
  resultKey: string;
  name: string;
  status: string;
  vacuous: boolean;
  score: number | null;
  threshold: number;
  reason: string;
  costUsd: number;
  latencyMs: number;
}

export type SortKey = "name" | "status" | "score" | "costUsd" | "latencyMs";

export interface TableQuery {
  status?: string;
  q?: string;
  /** One matrix cell (the heatmap's drill-down): either given means the cell filter is on, and a missing axis is "none". */
  model?: string;
  prompt?: number;
  sort: SortKey;
  dir: "asc" | "desc";
  page: number;
}

/** The URL of the run page for a query, so filters, sorting and paging are links (and survive a reload). */
export function queryHref(runId: string, query: TableQuery, change: Partial<TableQuery>): string {
  const next = { ...query, ...change };
  const params = new URLSearchParams();
  if (next.status) params.set("status", next.status);
  if (next.q) params.set("q", next.q);
  if (next.model !== undefined) params.set("model", next.model);
  if (next.prompt !== undefined) params.set("prompt", String(next.prompt));
  if (next.sort !== "name") params.set("sort", next.sort);
  if (next.dir !== "asc") params.set("dir", next.dir);
  if (next.page > 1) params.set("page", String(next.page));
  const text = params.toString();
  return `/runs/${runId}${text ? `?${text}` : ""}#results`;
}

export function resultHref(runId: string, resultKey: string): string {
  return `/runs/${runId}/results/${encodeURIComponent(resultKey)}`;
}

const COLUMNS: { key: SortKey; label: string; num?: boolean }[] = [
  { key: "name", label: "Eval" },
  { key: "status", label: "Status" },
  { key: "score", label: "Score", num: true },
  { key: "costUsd", label: "Cost", num: true },
  { key: "latencyMs", label: "Latency", num: true },
];

export function ResultsTable({ runId, rows, query }: { runId: string; rows: ResultRowView[]; query: TableQuery }) {
  if (rows.length === 0) {
    return (
      <div className={styles.empty} data-testid="results-empty">
        No results match. {query.status || query.q ? "Clear the filters to see every result." : "Results appear here as they are graded."}
      </div>
    );
  }
  return (
    <table className={styles.table} data-testid="results-table">
      <thead>
        <tr>
          {COLUMNS.map((c) => {
            const active = query.sort === c.key;
            const dir = active && query.dir === "asc" ? "desc" : "asc";
            return (
              <th key={c.key} className={c.num ? styles.num : undefined} aria-sort={active ? (query.dir === "asc" ? "ascending" : "descending") : undefined}>
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
      <tbody>
        {rows.map((row) => (
          <tr key={row.resultKey} data-testid="result-row" data-status={row.status}>
            <td>
              <Link className={styles.rowLink} href={resultHref(runId, row.resultKey)}>
                {row.name}
              </Link>
            </td>
            <td>
              <StatusBadge status={row.status} />
              {row.vacuous ? <span className={styles.muted}> vacuous</span> : null}
            </td>
            <td className={styles.num}>
              {formatScore(row.score)} <span className={styles.muted}>/ {formatScore(row.threshold)}</span>
            </td>
            <td className={styles.num}>{formatUsd(row.costUsd)}</td>
            <td className={styles.num}>{formatMs(row.latencyMs)}</td>
            <td className={styles.muted}>{row.reason}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function ResultsPager({ runId, query, total, pageSize }: { runId: string; query: TableQuery; total: number; pageSize: number }) {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const first = total === 0 ? 0 : (query.page - 1) * pageSize + 1;
  const last = Math.min(total, query.page * pageSize);
  return (
    <nav className={styles.pager} aria-label="Result pages" data-testid="results-pager">
      {query.page > 1 ? <Link href={queryHref(runId, query, { page: query.page - 1 })}>← Previous</Link> : <span className={styles.muted}>← Previous</span>}
      <span data-testid="results-range">
        {first}–{last} of {total} · page {query.page} of {pages}
      </span>
      {query.page < pages ? <Link href={queryHref(runId, query, { page: query.page + 1 })}>Next →</Link> : <span className={styles.muted}>Next →</span>}
    </nav>
  );
}
