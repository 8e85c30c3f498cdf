import path from "node:path";
import { availableParallelism, loadavg } from "node:os";
import pg from "pg";
import {
  createPrismaClient,
  parseDatabaseUrl,
  withAdapter,
  type PrismaClient,
} from "../lib/store/connection";
import { createRunQueries, type ResultSort } from "../lib/store/run-queries";
import { createRunStore } from "../lib/store/run-store";
import { applyMigrations } from "../lib/store/schema-engine";
import { bigRunBench } from "./big-run-bench";
import { bulkLoadHistory, RUNS, SUITE_NAME, type LoadedHistory } from "./bulk-load-history";
import {
  createRandom,
  evalNameOf,
  JUDGE_MODELS,
  resultKeyOf,
  SUITE_FILE,
  syntheticResult,
} from "./synthetic-results";
import {
  findPostgresBin,
  startThrowawayPostgres,
  type ThrowawayPostgres,
} from "./throwaway-postgres";

// `npm run bench:store`: the dashboard's run-history queries on a history of
// 1,000,000 criterion results in 500 runs, on a real Postgres. Each query is
// timed 50 times (p50, p95; target p95 < 100 ms), and so is what a running
// grader does: createRunStore().saveResult with 8 results in flight. Every
// answer is checked (counts, pages, points); the exit code is non-zero only
// when one is wrong or the load fails, not when a figure misses its target.
// Figures move with the machine's load, so the load average is printed too.
//
// BENCH_DATABASE_URL: a server to use (the bench creates a database of its own
// there and drops it at the end). Otherwise a throwaway Postgres is started
// from Debian's binaries and stopped at the end, also on error or Ctrl-C.
//
// The bundle is written to .bench/store/ so that lib/store finds prisma/
// (two folders up from the module, as from lib/store and dist/cli).

const TRIES = 50;
const WARM_UP = 5;
const TARGET_P95_MS = 100;
const SAVE_RESULTS = 2_000;
const SAVE_IN_FLIGHT = 8;

interface Timing {
  label: string;
  p50: number;
  p95: number;
  rows: string;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** Times TRIES calls after a short warm-up; `check` validates what each call returned. */
async function time<T>(input: {
  label: string;
  call: (i: number) => Promise<T>;
  rows: (value: T) => number;
  check: (value: T) => string | undefined;
}): Promise<Timing> {
  for (let i = 0; i < WARM_UP; i++) await input.call(i);
  const ms: number[] = [];
  let rows = 0;
  for (let i = 0; i < TRIES; i++) {
    const started = performance.now();
    const value = await input.call(i);
    ms.push(performance.now() - started);
    const problem = input.check(value);
    if (problem) throw new Error(`${input.label}: ${problem}`);
    rows = input.rows(value);
  }
  ms.sort((a, b) => a - b);
  return {
    label: input.label,
    p50: percentile(ms, 50),
    p95: percentile(ms, 95),
    rows: String(rows),
  };
}

async function timeQueries(prisma: PrismaClient, history: LoadedHistory): Promise<Timing[]> {
  const queries = createRunQueries(prisma);
  const runId = history.bigRunId;
  const evalAt = (i: number) => evalNameOf((i * 7) % 45);
  const sorts: ResultSort[] = [
    { by: "score", direction: "desc" },
    { by: "name", direction: "asc" },
    { by: "costUsd", direction: "desc" },
    { by: "latencyMs", direction: "asc" },
    { by: "status", direction: "asc" },
  ];
  const timings: Timing[] = [];
  timings.push(
    await time({
      label: `trend: one eval, all ${JUDGE_MODELS.length} cells, ${RUNS} runs`,
      call: (i) => queries.evalTrend({ suiteName: SUITE_NAME, evalName: evalAt(i), limit: RUNS }),
      rows: (points) => points.length,
      check: (points) =>
        new Set(points.map((p) => p.runId)).size === RUNS &&
        points.length === RUNS * JUDGE_MODELS.length
          ? undefined
          : `${points.length} points`,
    }),
  );
  timings.push(
    await time({
      label: "trend: one eval, newest 20 runs (history page)",
      call: (i) => queries.evalTrend({ suiteName: SUITE_NAME, evalName: evalAt(i), limit: 20 }),
      rows: (points) => points.length,
      check: (points) =>
        points.length === 20 * JUDGE_MODELS.length ? undefined : `${points.length} points`,
    }),
  );
  timings.push(
    await time({
      label: `trend: one cell, ${RUNS} runs`,
      call: (i) =>
        queries.evalTrend({
          suiteName: SUITE_NAME,
          evalName: evalAt(i),
          resultKey: resultKeyOf(evalAt(i), JUDGE_MODELS[i % JUDGE_MODELS.length]!),
          limit: RUNS,
        }),
      rows: (points) => points.length,
      check: (points) => (points.length === RUNS ? undefined : `${points.length} points`),
    }),
  );
  timings.push(
    await time({
      label: "page 1 of 10,000 (50 rows; 5 sorts)",
      call: (i) => queries.runResultsPage({ runId, sort: sorts[i % sorts.length], pageSize: 50 }),
      rows: (page) => page.rows.length,
      check: (page) =>
        page.total === 10_000 && page.rows.length === 50
          ? undefined
          : `total ${page.total}, ${page.rows.length} rows`,
    }),
  );
  timings.push(
    await time({
      label: "last page, by keyset (5 sorts)",
      call: (i) =>
        queries.runResultsPage({
          runId,
          sort: sorts[i % sorts.length],
          pageSize: 50,
          last: true,
        }),
      rows: (page) => page.rows.length,
      check: (page) =>
        page.total === 10_000 && page.rows.length === 50 && page.nextCursor === null
          ? undefined
          : `total ${page.total}, ${page.rows.length} rows`,
    }),
  );
  // Walking forward with cursors: each try asks for the page after the last.
  let cursor: string | undefined;
  timings.push(
    await time({
      label: "next page by cursor (score desc)",
      call: async () => {
        const page = await queries.runResultsPage({
          runId,
          sort: sorts[0],
          pageSize: 50,
          ...(cursor ? { cursor } : {}),
        });
        cursor = page.nextCursor ?? undefined;
        return page;
      },
      rows: (page) => page.rows.length,
      check: (page) =>
        page.total === 10_000 && page.rows.length === 50
          ? undefined
          : `total ${page.total}, ${page.rows.length} rows`,
    }),
  );
  timings.push(
    await time({
      label: "page filtered: failed + search, by cost",
      call: (i) =>
        queries.runResultsPage({
          runId,
          status: "failed",
          search: ["refund", "billing", "SAML", "#12", "sonnet"][i % 5],
          sort: sorts[2],
          pageSize: 50,
        }),
      rows: (page) => page.rows.length,
      check: (page) =>
        page.total > 0 && page.rows.every((r) => r.status === "failed")
          ? undefined
          : `total ${page.total}`,
    }),
  );
  timings.push(
    await time({
      label: "per-model summary of the 10,000-result run",
      call: () => queries.runModelSummary({ runId }),
      rows: (models) => models.length,
      check: (models) =>
        models.length === JUDGE_MODELS.length &&
        models.reduce((n, m) => n + m.results, 0) === 10_000
          ? undefined
          : `${models.length} models`,
    }),
  );
  return timings;
}

/** Results per second through createRunStore().saveResult, `SAVE_IN_FLIGHT` at a time, as a run's workers store them. */
async function timeSaving(
  prisma: PrismaClient,
): Promise<{ results: number; criteria: number; ms: number }> {
  const store = createRunStore(prisma);
  const version = await store.saveSuiteVersion({
    name: SUITE_NAME,
    yaml: "# bench: results stored during a run\n",
  });
  const config = {
    file: SUITE_FILE,
    toolVersion: "0.1.0",
    judgeModel: JUDGE_MODELS[0]!,
    concurrency: SAVE_IN_FLIGHT,
    timeoutSeconds: 120,
  };
  const random = createRandom(7);
  const make = (n: number) =>
    Array.from({ length: n }, (_, i) =>
      syntheticResult({
        evalIndex: Math.floor(i / JUDGE_MODELS.length),
        model: JUDGE_MODELS[i % JUDGE_MODELS.length]!,
        criteria: 10,
        drift: 0,
        random,
      }),
    );
  const save = async (runId: string, results: ReturnType<typeof make>) => {
    let next = 0;
    await Promise.all(
      Array.from({ length: SAVE_IN_FLIGHT }, async () => {
        for (let i = next++; i < results.length; i = next++)
          await store.saveResult(runId, results[i]!);
      }),
    );
  };
  const warmUp = await store.createRun({
    ...version,
    startedBy: "worker",
    config,
    totalCells: 200,
  });
  await save(warmUp, make(200));
  const results = make(SAVE_RESULTS);
  const runId = await store.createRun({
    ...version,
    startedBy: "worker",
    config,
    totalCells: SAVE_RESULTS,
  });
  const started = performance.now();
  await save(runId, results);
  const ms = performance.now() - started;
  const stored = await prisma.criterionResultRow.count({ where: { runId } });
  const criteria = results.reduce((n, r) => n + r.criteria.length, 0);
  if (stored !== criteria)
    throw new Error(`saveResult stored ${stored} criterion rows, expected ${criteria}`);
  return { results: SAVE_RESULTS, criteria, ms };
}

function renderTable(timings: Timing[]): string {
  const head = ["query (50 tries each)", "p50", "p95", "target", "", "rows"];
  const body = timings.map((t) => [
    t.label,
    `${t.p50.toFixed(1)} ms`,
    `${t.p95.toFixed(1)} ms`,
    `p95 < ${TARGET_P95_MS} ms`,
    t.p95 < TARGET_P95_MS ? "✓" : "✗",
    t.rows,
  ]);
  const widths = head.map((_, i) => Math.max(...[head, ...body].map((cells) => cells[i]!.length)));
  return [head, ...body]
    .map((cells) =>
      cells
        .map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!)))
        .join("  "),
    )
    .join("\n");
}

/** A database of our own: on BENCH_DATABASE_URL's server, or on a throwaway server. */
async function provision(): Promise<
  { url: string; server: string; release(): Promise<void> } | undefined
> {
  const given = process.env.BENCH_DATABASE_URL;
  let throwaway: ThrowawayPostgres | undefined;
  if (!given) {
    const bin = findPostgresBin();
    if (!bin) return undefined;
    throwaway = await startThrowawayPostgres(bin);
    onInterrupt = async () => throwaway?.stop();
  }
  const serverUrl = given ?? throwaway!.url;
  const name = `rs_bench_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const release = async () => {
    if (throwaway) {
      throwaway.stop();
      return;
    }
    const client = new pg.Client(parseDatabaseUrl(serverUrl));
    await client.connect();
    await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await client.end();
  };
  try {
    const admin = new pg.Client(parseDatabaseUrl(serverUrl));
    await admin.connect();
    const version = (await admin.query<{ server_version: string }>("SHOW server_version")).rows[0]!
      .server_version;
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    onInterrupt = release;
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    return {
      url: url.toString(),
      server: `${throwaway ? "throwaway" : "BENCH_DATABASE_URL"} Postgres ${version}${throwaway ? " (fsync=off)" : ""}`,
      release,
    };
  } catch (error) {
    throwaway?.stop();
    throw error;
  }
}

// Ctrl-C or a kill during the load still stops the server (or drops the database).
let onInterrupt: (() => Promise<void>) | undefined;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    void (onInterrupt?.() ?? Promise.resolve()).finally(() => process.exit(130));
  });
}

async function main(): Promise<number> {
  const db = await provision();
  if (!db) {
    console.error(
      [
        "bench:store needs a real Postgres, and found no server binaries in /usr/lib/postgresql/*/bin.",
        "Install them with `apt-get install -y --no-install-recommends postgresql` (Postgres 15 on Debian 12),",
        "or point BENCH_DATABASE_URL at a server where this user may create databases.",
      ].join("\n"),
    );
    return 2;
  }
  let prisma: PrismaClient | undefined;
  try {
    const benchStarted = performance.now();
    console.log(
      `Store benchmark on ${db.server}; node ${process.version}, ${availableParallelism()} CPUs, load average ${loadavg()[0]!.toFixed(2)}.`,
    );
    await withAdapter(db.url, applyMigrations);
    let shown = 0;
    const history = await bulkLoadHistory({
      connection: parseDatabaseUrl(db.url),
      onProgress: (criteria) => {
        if (criteria - shown >= 200_000) {
          shown = criteria - (criteria % 200_000);
          console.log(`  loaded ${criteria.toLocaleString("en-US")} criterion results…`);
        }
      },
    });
    const rowsPerSecond =
      (history.evalResults + history.criterionResults) / (history.loadMs / 1000);
    console.log(
      `Loaded ${history.criterionResults.toLocaleString("en-US")} criterion results and ${history.evalResults.toLocaleString("en-US")} eval results in ${RUNS} runs ` +
        `in ${(history.loadMs / 1000).toFixed(1)} s (${Math.round(rowsPerSecond).toLocaleString("en-US")} rows/s), ` +
        `then made the keys and indexes again and ran VACUUM ANALYZE in ${(history.indexMs / 1000).toFixed(1)} s.`,
    );

    prisma = createPrismaClient(db.url, { max: SAVE_IN_FLIGHT });
    const timings = await timeQueries(prisma, history);
    const saved = await timeSaving(prisma);
    console.log(
      [
        "",
        renderTable(timings),
        "",
        `storing results during a run (createRunStore().saveResult, ${SAVE_IN_FLIGHT} in flight, ${saved.results.toLocaleString("en-US")} results × 10 criteria, into the loaded history):`,
        `  ${Math.round(saved.results / (saved.ms / 1000)).toLocaleString("en-US")} results/s = ${Math.round(saved.criteria / (saved.ms / 1000)).toLocaleString("en-US")} criterion rows/s (${(saved.ms / 1000).toFixed(1)} s)`,
        "",
        `Whole bench: ${((performance.now() - benchStarted) / 1000).toFixed(0)} s.`,
      ].join("\n"),
    );
    return 0;
  } finally {
    await prisma?.$disconnect();
    onInterrupt = undefined;
    await db.release();
  }
}

// `--big-run N [--writes N] [--pglite] [--compare [--cli DIR]...]`: one run of N results and the run page's reads of it (big-run-bench.ts).
const bigRun = process.argv.indexOf("--big-run");
process.exitCode =
  bigRun >= 0
    ? await bigRunBench({
        results: Number(process.argv[bigRun + 1] ?? 1_000_000),
        writes: Number(
          process.argv.includes("--writes")
            ? process.argv[process.argv.indexOf("--writes") + 1]
            : 50_000,
        ),
        pglite: process.argv.includes("--pglite"),
        // `--compare [--cli DIR]...`: the History page's comparison, per checkout (default: this one).
        ...(process.argv.includes("--compare")
          ? {
              compare: process.argv.flatMap((a, i) =>
                process.argv[i - 1] === "--cli" ? [path.resolve(a)] : [],
              ),
            }
          : {}),
      })
    : await main();
