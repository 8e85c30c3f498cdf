import Link from "next/link";
import { queryHref, type SortKey, type TableQuery } from "./results-query";
import styles from "./results-table.module.css";

// The results table's sort links: a column's header sorts by it (again: the other way), and the
// Eval column's says which order the rows are in (the suite's, or by name), with a link to the other.

/** The Eval header: the order the rows are in (its link reverses it), then a link to the other. */
export function EvalSortLinks({ runId, query }: { runId: string; query: TableQuery }) {
  const byName = query.sort === "name";
  // Sorted by another column, the rows are in neither order: the header names none.
  const order = byName
    ? `, ${query.dir === "asc" ? "A–Z" : "Z–A"}`
    : query.sort === "order"
      ? ", suite order"
      : "";
  return (
    <>
      <SortLink
        runId={runId}
        query={query}
        sort={byName ? "name" : "order"}
        label={`Eval${order}`}
        testId="eval-order"
      />
      {" · "}
      <SortLink
        runId={runId}
        query={query}
        sort={byName ? "order" : "name"}
        label={byName ? "suite order" : "sort A–Z"}
        className={styles.muted}
        testId={byName ? "sort-by-order" : "sort-by-name"}
      />
    </>
  );
}

export function SortLink(input: {
  runId: string;
  query: TableQuery;
  sort: SortKey;
  label: string;
  className?: string;
  testId?: string;
}) {
  const { query } = input;
  const active = query.sort === input.sort;
  const dir = active && query.dir === "asc" ? "desc" : "asc";
  return (
    <Link
      href={queryHref(input.runId, query, { sort: input.sort, dir })}
      className={input.className}
      data-testid={input.testId}
    >
      {input.label}
      {active ? (query.dir === "asc" ? " ▲" : " ▼") : ""}
    </Link>
  );
}
