import { mkdtemp, rm } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { createPrismaClient, withAdapter, type PrismaClient } from "../lib/store/connection";
import { startEmbeddedServer } from "../lib/store/embedded-thread";
import { createRunExport } from "../lib/store/run-export";
import { createRunQueries } from "../lib/store/run-queries";
import { createRunViews } from "../lib/store/run-views";
import { createPositionBiasViews } from "../lib/store/position-bias";
import { labelCalibration, labelPeopleAgreement } from "../lib/store/label-calibration";
import { createReviewQueue } from "../lib/store/review-queue";
import { createRegradeViews } from "../lib/store/regrade-views";
import { applyMigrations } from "../lib/store/schema-engine";
import { csvHeader, csvResultLine } from "../lib/report/csv-rows";
import { seedBigRun, type SeededRun } from "./seed-big-run";
import { matrixCellsOf, storeRunFigures } from "../lib/store/run-figures";
import { findPostgresBin, startThrowawayPostgres } from "./throwaway-postgres";
import { historyCompareBench } from "./history-compare-bench";
import { writeRate } from "./write-rate-bench";

// `npm run bench:store -- --big-run 1000000 [--writes 50000] [--pglite]`: first the rate at which a
// run's results are written (--writes, default 50,000; 0 leaves it out), then one run of that many results (3 criteria
// each) seeded into a throwaway database (Postgres 15, or the embedded PGlite server with --pglite),
// then what the run page's server does for it, each timed 5 times after a warm-up: the figures
// (runOverview: counts), the first rows, the next page, the last page and the one before it (keyset),
// the heatmap (kept, and as a running run's is counted), whether there are several judges, the agreement view's figures, a filtered page,
// the deferral causes; and the CSV download read whole
// (its first byte and its end), with this process's peak RSS (with --pglite the database runs in
// this process too).

const TRIES = 5;

async function time<T>(label: string, call: () => Promise<T>, describe: (v: T) => string) {
  await call();
  const ms: number[] = [];
  let last: T | undefined;
  for (let i = 0; i < TRIES; i++) {
    const started = performance.now();
    last = await call();
    ms.push(performance.now() - started);
  }
  ms.sort((a, b) => a - b);
  console.log(
    `  ${label.padEnd(44)} p50 ${ms[Math.floor(TRIES / 2)]!.toFixed(0).padStart(6)} ms  max ${ms.at(-1)!.toFixed(0).padStart(6)} ms  ${describe(last!)}`,
  );
}

type BenchRun = Pick<SeededRun, "runId" | "results">;

async function pageFigures(prisma: PrismaClient, run: BenchRun): Promise<void> {
  const views = createRunViews(prisma);
  const queries = createRunQueries(prisma);
  const bias = createPositionBiasViews(prisma);
  const id = run.runId;
  await time(
    "counts (runOverview)",
    () => views.runOverview(id),
    (o) => `${o?.results} results`,
  );
  await time(
    "first rows (page 1, 100 rows, by name)",
    () => queries.runResultsPage({ runId: id, pageSize: 100 }),
    (p) => `${p.rows.length} rows of ${p.total}`,
  );
  let cursor: string | undefined;
  await time(
    "next page by cursor (by name)",
    async () => {
      const page = await queries.runResultsPage({
        runId: id,
        pageSize: 100,
        ...(cursor ? { cursor } : {}),
      });
      cursor = page.nextCursor ?? undefined;
      return page;
    },
    (p) => `${p.rows.length} rows`,
  );
  // Deep pages by keyset: the last page (the order read backwards) and the one before it (by its
  // first row's cursor), as fast as the first; by score there is no index, so every page sorts.
  let before: string | undefined;
  await time(
    "last page (keyset, by name)",
    async () => {
      const page = await queries.runResultsPage({ runId: id, pageSize: 100, last: true });
      before = page.prevCursor ?? undefined;
      return page;
    },
    (p) => `rows ${p.firstIndex + 1}–${p.firstIndex + p.rows.length} of ${p.total}`,
  );
  await time(
    "page before the last (by cursor, by name)",
    () => queries.runResultsPage({ runId: id, pageSize: 100, ...(before ? { before } : {}) }),
    (p) => `rows ${p.firstIndex + 1}–${p.firstIndex + p.rows.length}`,
  );
  await time(
    "last page by score, descending (sorts)",
    () =>
      queries.runResultsPage({
        runId: id,
        pageSize: 100,
        sort: { by: "score", direction: "desc" },
        last: true,
      }),
    (p) => `rows ${p.firstIndex + 1}–${p.firstIndex + p.rows.length}`,
  );
  await time(
    "first page by score, ascending (index)",
    () =>
      queries.runResultsPage({ runId: id, pageSize: 100, sort: { by: "score", direction: "asc" } }),
    (p) => `rows ${p.firstIndex + 1}–${p.firstIndex + p.rows.length}`,
  );
  await time(
    "last page by cost (keyset, index)",
    () =>
      queries.runResultsPage({
        runId: id,
        pageSize: 100,
        sort: { by: "costUsd", direction: "desc" },
        last: true,
      }),
    (p) => `rows ${p.firstIndex + 1}–${p.firstIndex + p.rows.length}`,
  );
  await time(
    "filtered page (status failed, by name)",
    () => queries.runResultsPage({ runId: id, status: "failed", pageSize: 100 }),
    (p) => `${p.rows.length} rows of ${p.total}`,
  );
  await time(
    "filtered page (judge_error + search)",
    () =>
      queries.runResultsPage({ runId: id, status: "judge_error", search: "refund", pageSize: 100 }),
    (p) => `${p.rows.length} rows of ${p.total}`,
  );
  await time(
    "heatmap (matrixCells)",
    () => views.matrixCells({ runId: id }),
    (c) => `${c.length} cells`,
  );
  // A running run's heatmap, counted on each load (a finished run's is read from its figures).
  await time(
    "heatmap, counted (matrixCellsOf, running)",
    () => matrixCellsOf(prisma, { runId: id }),
    (c) => `${c.length} cells`,
  );
  await time("several judges? (hasSeveralJudges)", () => views.hasSeveralJudges(id), String);
  await time(
    "judge agreement view (runAgreement)",
    () => views.runAgreement(id),
    (a) =>
      "unavailable" in a
        ? a.unavailable
        : `${a.statistics.length} figures over ${a.results.toLocaleString("en-US")} results${a.sampledFirst ? ` (the first ${a.sampledFirst.toLocaleString("en-US")} of ${a.of?.toLocaleString("en-US")})` : ""}`,
  );
  await time(
    "position bias",
    () => bias.runPositionBias(id),
    (b) => (b ? "some" : "none"),
  );
  await time(
    "deferral causes",
    () => queries.deferReasons(id),
    (r) => `${r.length} causes`,
  );
  await time(
    "per-model summary",
    () => queries.runModelSummary({ runId: id }),
    (m) => `${m.length} models`,
  );
  await subPages(prisma, id);
}

/** The run page's other reads and its sub-pages: history, calibration by people, review queue, flips. */
async function subPages(prisma: PrismaClient, id: string): Promise<void> {
  const views = createRunViews(prisma);
  const queries = createRunQueries(prisma);
  const { suiteId } = await prisma.run.findUniqueOrThrow({
    where: { id },
    select: { suiteId: true },
  });
  const suite = await views.suite(suiteId);
  const evalName = (
    await prisma.evalResultRow.findFirst({ where: { runId: id }, select: { evalName: true } })
  )?.evalName;
  await time(
    "history: the suite's runs (listRuns)",
    () => views.listRuns({ suiteId, limit: 50 }),
    (r) => `${r.length} runs`,
  );
  await time(
    "history: one eval's trend (evalTrend)",
    () => queries.evalTrend({ suiteName: suite!.name, evalName: evalName!, limit: 20 }),
    (t) => `${t.length} points`,
  );
  await time(
    "calibration by people (labelCalibration)",
    () => labelCalibration(prisma, { runId: id }),
    (c) => (c ? "some" : "no labels"),
  );
  await time(
    "people × people (labelPeopleAgreement)",
    () => labelPeopleAgreement(prisma, { runId: id }),
    (p) => `${p.length} rows`,
  );
  await time(
    "review queue (list)",
    () => createReviewQueue(prisma).list({ suiteId }),
    (q) => `${q.items.length} items`,
  );
  const flips = createRegradeViews(prisma);
  await time(
    "flips: counts (not a regrade)",
    () => flips.flipCounts({ runId: id }),
    (f) => JSON.stringify(f).slice(0, 40),
  );
  await time(
    "flips: first page (not a regrade)",
    () => flips.flipPage({ runId: id }),
    (f) => `${f.pairs.length} pairs`,
  );
}

/** The CSV download's work: the header, then every page through the csv reporter's rows. */
async function csvDownload(prisma: PrismaClient, run: BenchRun): Promise<void> {
  const exporter = createRunExport(prisma);
  const started = performance.now();
  const criteria = await exporter.criterionNames(run.runId);
  let bytes = csvHeader(criteria).length;
  let first: number | undefined;
  let rows = 0;
  for await (const page of exporter.resultPages(run.runId)) {
    for (const result of page) bytes += csvResultLine(result, criteria).length;
    rows += page.length;
    first ??= performance.now() - started;
  }
  const whole = performance.now() - started;
  console.log(
    `  CSV download: first rows ${first!.toFixed(0)} ms, whole ${(whole / 1000).toFixed(1)} s (${rows.toLocaleString("en-US")} rows, ${(bytes / 1e6).toFixed(0)} MB, ${Math.round(rows / (whole / 1000)).toLocaleString("en-US")} rows/s)`,
  );
}

export async function bigRunBench(input: {
  results: number;
  writes: number;
  pglite: boolean;
  /** `--compare`: the History page's comparison of two such runs instead, per checkout (history-compare-bench.ts). */
  compare?: string[];
}): Promise<number> {
  const cleanups: (() => Promise<void> | void)[] = [];
  let url: string;
  let server: string;
  let serverCpuMs: (() => number | undefined) | undefined;
  // BENCH_BIG_RUN_URL and BENCH_BIG_RUN_ID: a run seeded before (a migrated database), measured again.
  const reuse = process.env.BENCH_BIG_RUN_ID;
  if (process.env.BENCH_BIG_RUN_URL) {
    url = process.env.BENCH_BIG_RUN_URL;
    server = `BENCH_BIG_RUN_URL`;
    await withAdapter(url, applyMigrations);
  } else if (input.pglite) {
    const dir = await mkdtemp(path.join(tmpdir(), "rs-big-run-"));
    const embedded = await startEmbeddedServer({
      dataDir: path.join(dir, "pglite"),
      migrate: true,
    });
    cleanups.push(
      () => rm(dir, { recursive: true, force: true }),
      () => embedded.stop(),
    );
    url = embedded.url;
    server = "the embedded PGlite server, in this process";
  } else {
    const bin = findPostgresBin();
    if (!bin) throw new Error("no Postgres binaries in /usr/lib/postgresql/*/bin");
    const pg = await startThrowawayPostgres(bin);
    cleanups.push(() => pg.stop());
    url = pg.url;
    serverCpuMs = pg.cpuMs;
    server = `throwaway Postgres ${pg.version} (fsync=off)`;
    await withAdapter(url, applyMigrations);
  }
  const prisma = createPrismaClient(url, { max: 4 });
  try {
    console.log(`Big-run benchmark on ${server}; load average ${loadavg()[0]!.toFixed(2)}.`);
    if (input.writes > 0)
      await writeRate(prisma, { count: input.writes, ...(serverCpuMs ? { serverCpuMs } : {}) });
    if (input.results <= 0 && !reuse) return 0;
    const seeded = reuse
      ? { runId: reuse, results: await prisma.evalResultRow.count({ where: { runId: reuse } }) }
      : await seedBigRun({ url, results: input.results, criteria: 3 });
    if (!reuse)
      console.log(
        `Seeded one run of ${seeded.results.toLocaleString("en-US")} results (3 criteria each) in ${((seeded as SeededRun).ms / 1000).toFixed(0)} s.`,
      );
    if (input.compare) {
      const { results, runId } = seeded;
      await historyCompareBench({ url, baseRunId: runId, results, roots: input.compare });
      return 0;
    }
    // What finishRun does at the end of a run: its counts and heatmap counted once, kept with it.
    const finishing = performance.now();
    await storeRunFigures(prisma, { runId: seeded.runId });
    console.log(
      `  finishing the run (storeRunFigures, once): ${((performance.now() - finishing) / 1000).toFixed(1)} s`,
    );
    await pageFigures(prisma, seeded);
    await csvDownload(prisma, seeded);
    console.log(
      `  peak RSS of this process: ${Math.round(process.resourceUsage().maxRSS / 1024)} MB; load average ${loadavg()[0]!.toFixed(2)}`,
    );
    return 0;
  } finally {
    await prisma.$disconnect();
    for (const cleanup of cleanups.reverse()) await cleanup();
  }
}
