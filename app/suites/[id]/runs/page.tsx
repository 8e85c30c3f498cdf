import Link from "next/link";
import { notFound } from "next/navigation";
import * as z from "zod";
import { CompareForm } from "@/components/results/compare-form";
import { PositionBiasHistory } from "@/components/results/position-bias";
import { RunComparison } from "@/components/results/run-comparison";
import styles from "@/components/results/results.module.css";
import { SuiteCrumbs } from "@/components/results/suite-crumbs";
import { RunsTable } from "@/components/results/runs-table";
import { ScoreTrend } from "@/components/results/score-trend";
import { trendChartOf } from "@/components/results/score-trend-series";
import type { RunListItem } from "@/lib/store/run-views";
import { positionBiasViews, runQueries, runViews, toRunRow } from "../../../runs/_lib/load";

export const metadata = { title: "Suite history" };

export const dynamic = "force-dynamic";

const RUNS_SHOWN = 50;
const TREND_RUNS = 20;
const TREND_EVALS = 12;

const CompareSchema = z.object({
  base: z.uuid().optional().catch(undefined),
  head: z.uuid().optional().catch(undefined),
});

/** Which suite versions the two compared runs graded, with a link to their diff when they differ. */
function VersionsCompared({
  suiteId,
  base,
  head,
}: {
  suiteId: string;
  base?: RunListItem;
  head?: RunListItem;
}) {
  if (!base || !head || base.id === head.id) return null;
  if (base.version.id === head.version.id)
    return (
      <p className={styles.muted} data-testid="compared-versions">
        Both runs graded the same suite version, v{head.version.number}.
      </p>
    );
  return (
    <p data-testid="compared-versions">
      The suite changed between these runs: v{base.version.number} → v{head.version.number}.{" "}
      <Link
        href={`/suites/${suiteId}/diff?from=${base.version.id}&to=${head.version.id}`}
        data-testid="version-diff-link"
      >
        See what changed →
      </Link>
    </p>
  );
}

export default async function SuiteRunsPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { id } = await params;
  const views = await runViews();
  const suite = await views.suite(id);
  if (!suite) notFound();
  const runs = await views.listRuns({ suiteId: id, limit: RUNS_SHOWN });
  const raw = await searchParams;
  const picked = CompareSchema.parse({ base: raw.base, head: raw.head });
  // By default the two newest runs, the question people ask most: what changed since last time?
  const head = picked.head ?? runs[0]?.id;
  const base = picked.base ?? runs[1]?.id;

  const queries = await runQueries();
  const evalNames = runs[0] ? (await views.evalNames(runs[0].id)).slice(0, TREND_EVALS) : [];
  const [trends, comparison, bias] = await Promise.all([
    Promise.all(
      evalNames.map(async (evalName) => ({
        evalName,
        ...trendChartOf(
          await queries.evalTrend({ suiteName: suite.name, evalName, limit: TREND_RUNS }),
        ),
      })),
    ),
    base && head && base !== head
      ? views.compareRuns({ baseRunId: base, headRunId: head, maxDrop: 0.05 })
      : undefined,
    (await positionBiasViews()).suitePositionBias({ suiteId: id, limit: RUNS_SHOWN }),
  ]);

  return (
    <div className={styles.page}>
      <SuiteCrumbs suiteId={id} suiteName={suite.name} trail={[{ label: "history" }]} />
      <h1 className={styles.title}>History of {suite.name}</h1>

      <section className={styles.section}>
        <h2>Runs</h2>
        {/* A suite stored from a file is named by it: the hint's command names that file. */}
        <RunsTable
          runs={runs.map(toRunRow)}
          showSuite={false}
          {...(/\.ya?ml$/i.test(suite.name) ? { suiteFile: suite.name } : {})}
        />
      </section>

      {runs.length >= 2 ? (
        <section className={styles.section} id="compare">
          <h2>Compare two runs</h2>
          <CompareForm
            action={`/suites/${id}/runs#compare`}
            runs={runs.map((r) => ({
              id: r.id,
              createdAt: r.createdAt.toISOString(),
              status: r.status,
              counts: r.counts,
              version: r.version.number,
            }))}
            base={base}
            head={head}
          />
          <VersionsCompared
            suiteId={id}
            base={runs.find((r) => r.id === base)}
            head={runs.find((r) => r.id === head)}
          />
          {comparison ? (
            <RunComparison comparison={comparison} headRunId={head!} />
          ) : (
            <p className={styles.muted}>Pick two different runs.</p>
          )}
        </section>
      ) : null}

      {bias.length ? (
        <section className={styles.section} id="position-bias">
          <h2>Pairwise position bias per run</h2>
          <p className={styles.muted}>
            Of the pairs where both orders gave a definite verdict, how many changed when the
            outputs swapped places: each run&apos;s comparisons pooled, newest first.
          </p>
          <PositionBiasHistory
            runs={bias.map((b) => ({ ...b, createdAt: b.createdAt.toISOString() }))}
          />
        </section>
      ) : null}

      {trends.length ? (
        <section className={styles.section}>
          <h2>Score trend per eval</h2>
          <p className={styles.muted}>
            The last {TREND_RUNS} runs that graded each eval of the newest run
            {evalNames.length === TREND_EVALS ? ` (first ${TREND_EVALS} evals)` : ""}.
          </p>
          {trends.map((t) => (
            <ScoreTrend
              key={t.evalName}
              title={t.evalName}
              rows={t.rows}
              series={t.series}
              threshold={t.threshold}
            />
          ))}
        </section>
      ) : null}
    </div>
  );
}
