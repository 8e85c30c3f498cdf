import Link from "next/link";
import { notFound } from "next/navigation";
import { formatInt, formatTime, formatUsd } from "@/components/results/format";
import { MatrixHeatmap } from "@/components/results/matrix-heatmap";
import { RunProgressView } from "@/components/results/run-progress";
import { ResultsFilter } from "@/components/results/results-filter";
import { parseTableQuery, RESULTS_PAGE_SIZE, toResultRowView } from "@/components/results/results-query";
import { ResultsTable } from "@/components/results/results-table";
import styles from "@/components/results/results.module.css";
import { Stat, StatusCounts } from "@/components/results/status-counts";
import { StatusBadge } from "@/components/results/status-badge";
import { runQueries, runViews } from "../_lib/load";

export const dynamic = "force-dynamic";

export default async function RunPage({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { id } = await params;
  const query = parseTableQuery(await searchParams);
  const views = await runViews();
  // One round of queries, not two: the figures, the table's first rows and the matrix at once.
  const [run, page, cells] = await Promise.all([
    views.runOverview(id),
    (await runQueries()).runResultsPage({
      runId: id,
      ...(query.status ? { status: query.status } : {}),
      ...(query.q ? { search: query.q } : {}),
      sort: { by: query.sort, direction: query.dir },
      pageSize: RESULTS_PAGE_SIZE,
      offset: (query.page - 1) * RESULTS_PAGE_SIZE,
    }),
    views.matrixCells({ runId: id }),
  ]);
  if (!run) notFound();
  const tokens = run.tokens.input + run.tokens.output + run.tokens.cacheRead + run.tokens.cacheWrite;

  return (
    <div className={styles.page}>
      <div className={styles.crumbs}>
        <Link href="/runs">Runs</Link> / <Link href={`/suites/${run.suiteId}/runs`}>{run.suiteName}</Link>
      </div>
      <h1 className={styles.title}>
        Run of {run.suiteName} <StatusBadge status={run.status} />
      </h1>
      <p className={styles.muted}>
        {formatTime(run.createdAt)} · started by {run.startedBy} · {run.results} of {run.totalCells} results
        {run.vacuous ? ` · ${run.vacuous} vacuous` : ""}
      </p>
      {run.error ? <div className={styles.error}>{run.error}</div> : null}
      <RunProgressView runId={id} active={run.status === "queued" || run.status === "running"} />

      <div className={`${styles.section} ${styles.stats}`} data-testid="run-counts">
        <StatusCounts counts={run.counts} />
      </div>
      <div className={`${styles.section} ${styles.stats}`}>
        <Stat label="Cost" value={formatUsd(run.costUsd)} testId="run-cost" />
        <Stat label="Judge calls" value={formatInt(run.judgeCalls)} />
        <Stat label="Tokens" value={formatInt(tokens)} testId="run-tokens" />
        <Stat label="Cache reads / writes" value={`${formatInt(run.tokens.cacheRead)} / ${formatInt(run.tokens.cacheWrite)}`} />
        <Stat label="Reused verdicts" value={formatInt(run.reusedCalls)} testId="run-reused" />
        <Stat label="Saved by the cache" value={formatUsd(run.savedUsd)} testId="run-saved" />
      </div>

      {cells.length > 0 ? (
        <section className={styles.section}>
          <h2>Matrix</h2>
          <p className={styles.muted}>Mean score and pass rate per judge model and prompt, over every eval with a matrix. Click a cell to list its results.</p>
          <MatrixHeatmap runId={id} cells={cells} />
        </section>
      ) : null}

      <section className={styles.section} id="results">
        <h2>Results</h2>
        <ResultsFilter runId={id} query={query} />
        {/* Keyed by the filters and sort: a new query is a new table; scrolling (page=) is not. */}
        <ResultsTable
          key={`${query.status ?? ""}|${query.q ?? ""}|${query.sort}|${query.dir}`}
          runId={id}
          query={query}
          total={page.total}
          initial={{ offset: (query.page - 1) * RESULTS_PAGE_SIZE, rows: page.rows.map(toResultRowView) }}
        />
      </section>
    </div>
  );
}
