import Link from "next/link";
import { notFound } from "next/navigation";
import { MatrixBars } from "@/components/results/matrix-bars";
import { cellLabel, MatrixHeatmap } from "@/components/results/matrix-heatmap";
import { RunLive } from "@/components/results/run-live";
import { DeferredNote } from "@/components/results/deferred-note";
import { ResultsFilter } from "@/components/results/results-filter";
import {
  cellFilter,
  pagingOf,
  parseTableQuery,
  positionOf,
  queryHref,
  RESULTS_PAGE_SIZE,
  SORT_COLUMN,
  toResultRowView,
} from "@/components/results/results-query";
import { RunPositionBiasCard } from "@/components/results/position-bias";
import { ResultsTable } from "@/components/results/results-table";
import styles from "@/components/results/results.module.css";
import { runProgress } from "@/lib/store/run-progress";
import { priceOfStoredCall } from "@/lib/judge/provider-resolution";
import { positionBiasViews, runQueries, runViews } from "../_lib/load";
import { RunRegrade } from "./run-regrade";

export async function generateMetadata({ params }: { params: Promise<{ id: string }> }) {
  return { title: `Run ${(await params).id.slice(0, 8)}` };
}

export const dynamic = "force-dynamic";

export default async function RunPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { id } = await params;
  const search = await searchParams;
  const query = parseTableQuery(search);
  const views = await runViews();
  // The heatmap's drill-down: one exact cell, a missing axis meaning "none".
  const cell = cellFilter(query);
  // One round of queries, not two: the figures, the table's first rows, the matrix and whether
  // there are juries at once.
  const queries = await runQueries();
  const tablePage = (position: ReturnType<typeof positionOf>) =>
    queries.runResultsPage({
      runId: id,
      ...(query.status ? { status: query.status } : {}),
      ...(query.q ? { search: query.q } : {}),
      ...(cell ? { cell } : {}),
      sort: { by: SORT_COLUMN[query.sort], direction: query.dir },
      pageSize: RESULTS_PAGE_SIZE,
      ...pagingOf(position),
    });
  const [run, page, cells, severalJudges, bias, deferReasons] = await Promise.all([
    views.runOverview(id),
    // A link whose cursor was edited, or made for another sort, opens the first page.
    tablePage(positionOf(query)).catch((error: unknown) => {
      if (error instanceof RangeError) return tablePage("first");
      throw error;
    }),
    views.matrixCells({ runId: id }),
    views.hasSeveralJudges(id),
    (await positionBiasViews()).runPositionBias(id),
    queries.deferReasons(id),
  ]);
  if (!run) notFound();
  // With no prompts the heatmap's columns are evals, and a cell's link names its eval in the search.
  const selected: (typeof cell & { evalName?: string }) | undefined =
    cell && query.q !== undefined && cells.some((c) => c.evalName === query.q)
      ? { ...cell, evalName: query.q }
      : cell;

  return (
    <div className={styles.page}>
      <div className={styles.crumbs}>
        <Link href="/runs">Runs</Link> /{" "}
        <Link href={`/suites/${run.suiteId}/runs`}>{run.suiteName}</Link>
      </div>
      <RunLive
        runId={id}
        suiteName={run.suiteName}
        createdAt={run.createdAt.toISOString()}
        startedBy={run.startedBy}
        version={run.version.number}
        initial={runProgress({ run, now: Date.now(), priceOf: priceOfStoredCall })}
        watch={search.watch === "1"}
        headerNote={
          <DeferredNote
            reasons={deferReasons}
            deferred={run.counts.deferred}
            total={run.totalCells}
          />
        }
      />
      {run.error ? <div className={styles.error}>{run.error}</div> : null}
      <RunRegrade runId={id} status={run.status} regradeOf={run.regradeOf} />
      <p>
        {/* A plain link: the file streams from the store; Next's router must not prefetch it. */}
        <a href={`/api/runs/${id}/results.csv`} download data-testid="results-csv">
          Download results (CSV)
        </a>{" "}
        <span className={styles.muted}>one row per result, a column per criterion score</span>
      </p>
      {severalJudges ? (
        <p>
          <Link href={`/runs/${id}/agreement`} data-testid="agreement-link">
            Judge agreement →
          </Link>{" "}
          <span className={styles.muted}>
            how far this run&apos;s jurors and panel models agree
          </span>
        </p>
      ) : null}

      {bias ? (
        <section className={styles.section}>
          <h2>Pairwise position bias</h2>
          <p className={styles.muted}>
            Pairs whose verdict changed when the two outputs swapped places, of the pairs where both
            orders gave a definite verdict, over every comparison of this run.
          </p>
          <div className={styles.stats}>
            <RunPositionBiasCard bias={bias} />
          </div>
        </section>
      ) : null}

      {cells.length > 0 ? (
        <section className={styles.section}>
          <h2>Matrix</h2>
          <p className={styles.muted}>
            Per candidate model (matrix.agents) or judge model, and prompt (with no prompts: eval, a
            dataset&apos;s items together), over every eval with a matrix: how many of the graded
            results passed, the pass rate of the runs list (green: all, amber: some, red: none;
            grey: nothing graded) and their mean score. Click a cell to list its results.
          </p>
          <MatrixHeatmap runId={id} cells={cells} selected={selected} />
          <MatrixBars runId={id} cells={cells} />
        </section>
      ) : null}

      <section className={styles.section} id="results">
        <h2>Results</h2>
        <ResultsFilter runId={id} query={query} />
        {selected ? (
          <p data-testid="cell-filter">
            Cell <strong>{cellLabel(selected)}</strong> ·{" "}
            <Link
              href={queryHref(id, query, {
                model: undefined,
                agent: undefined,
                prompt: undefined,
                ...(selected.evalName !== undefined ? { q: undefined } : {}),
              })}
            >
              show every cell
            </Link>
          </p>
        ) : null}
        <ResultsTable
          runId={id}
          query={query}
          page={{
            total: page.total,
            firstIndex: page.firstIndex,
            rows: page.rows.map(toResultRowView),
            nextCursor: page.nextCursor,
            prevCursor: page.prevCursor,
          }}
        />
      </section>
    </div>
  );
}
