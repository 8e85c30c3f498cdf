import { SORT_KEYS, type TableQuery } from "./results-query";
import styles from "./results.module.css";

const STATUSES: { value: string; label: string }[] = [
  { value: "", label: "All statuses" },
  { value: "passed", label: "Passed" },
  { value: "failed", label: "Failed" },
  { value: "deferred", label: "Deferred" },
  { value: "judge_error", label: "Judge error" },
  { value: "skipped", label: "Skipped" },
];

// A plain GET form: the server filters, so the table works the same without
// client JavaScript, and the URL can be shared. Sort order is kept; the page
// goes back to the top (a filtered set has its own rows).
export function ResultsFilter({ runId, query }: { runId: string; query: TableQuery }) {
  return (
    <>
      {query.unknownSort !== undefined ? (
        <p className={styles.muted} role="status" data-testid="unknown-sort">
          No sort &ldquo;{query.unknownSort}&rdquo;: sorted in suite order. The table sorts by{" "}
          {SORT_KEYS.join(", ")}.
        </p>
      ) : null}
      <form
        className={styles.toolbar}
        method="get"
        action={`/runs/${runId}#results`}
        role="search"
        aria-label="Filter results"
      >
        <label>
          Status
          <select
            className={styles.input}
            name="status"
            defaultValue={query.status ?? ""}
            aria-label="Status"
          >
            {STATUSES.map((s) => (
              <option key={s.value} value={s.value}>
                {s.label}
              </option>
            ))}
          </select>
        </label>
        <label>
          Name contains
          <input
            className={`${styles.input} ${styles.searchInput}`}
            type="search"
            name="q"
            defaultValue={query.q ?? ""}
            placeholder="eval name or cell, e.g. model=claude"
            aria-label="Search"
          />
        </label>
        {query.model !== undefined ? (
          <input type="hidden" name="model" value={query.model} />
        ) : null}
        {query.agent !== undefined ? (
          <input type="hidden" name="agent" value={query.agent} />
        ) : null}
        {query.prompt !== undefined ? (
          <input type="hidden" name="prompt" value={query.prompt} />
        ) : null}
        {query.sort !== "order" ? <input type="hidden" name="sort" value={query.sort} /> : null}
        {query.dir !== "asc" ? <input type="hidden" name="dir" value={query.dir} /> : null}
        <button className={styles.button} type="submit">
          Filter
        </button>
      </form>
    </>
  );
}
