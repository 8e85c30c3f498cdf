import type { PgBoss } from "pg-boss";
import { loadSuite } from "../config/load-suite";
import { suiteFileName } from "../config/suite-file-name";
import type { LoadResult, SuiteConfig } from "../config/types";
import { planCells, planTotals } from "../engine/plan/plan-suite";
import { resolveAsIfKeyed, resolveWithKeys } from "../engine/plan/resolve-provider";
import type { PrismaClient } from "./connection";
import { createRunStore, type RunConfig, type StartedBy } from "./run-store";
import {
  BATCHED_CHUNK_SIZE,
  CHUNK_SIZE,
  chunkSizeFor,
  enqueueChunks,
  openQueue,
} from "./grade-queue";
import { UUID } from "./uuid";

// Starting a queued run: count the plan (by arithmetic), store the suite's
// version, create the run as "queued" and put its cells on the queue in chunks,
// planned one at a time (a JSONL or CSV dataset is read as it goes: a
// million-cell plan is never held). Shared by `eval --queue` (which already
// holds a queue) and the dashboard's Run button.

/** Defaults of a run started from the dashboard (the CLI's own defaults). */
const DASHBOARD_CONCURRENCY = 8;
const DASHBOARD_TIMEOUT_SECONDS = 60;
/** A batch takes minutes to hours: a look a minute is plenty. */
const DASHBOARD_BATCH_POLL_SECONDS = 60;

export async function enqueuePlannedRun(input: {
  prisma: PrismaClient;
  boss: PgBoss;
  suite: SuiteConfig;
  suiteName: string;
  yaml: string;
  config: RunConfig;
  startedBy: StartedBy;
  filter?: RegExp;
  /**
   * The keys of the workers that will grade the run, when known (the dashboard's own): its planned
   * judge calls are then those they will make, a cell whose key is missing deferring with none.
   */
  hasKey?: (keyEnv: string) => boolean;
}): Promise<{ runId: string; cells: number; jobs: number }> {
  const store = createRunStore(input.prisma);
  // Counted as the workers will grade them: another vendor's cells make their calls too.
  const plan = {
    suite: input.suite,
    defaultModel: input.config.judgeModel,
    filter: input.filter,
    resolveModel: resolveAsIfKeyed(input.suite.providers),
  };
  const totals = planTotals(plan);
  const { suiteId, suiteVersionId } = await store.saveSuiteVersion({
    name: input.suiteName,
    yaml: input.yaml,
  });
  const plannedJudgeCalls = input.hasKey
    ? planTotals({
        ...plan,
        resolveModel: resolveWithKeys({ declared: input.suite.providers, hasKey: input.hasKey }),
      }).judgeCalls
    : totals.judgeCalls;
  const runId = await store.createRun({
    suiteId,
    suiteVersionId,
    startedBy: input.startedBy,
    config: { ...input.config, plannedJudgeCalls },
    totalCells: totals.cells,
    status: "queued",
  });
  const queued = await enqueueChunks({
    boss: input.boss,
    runId,
    cells: planCells(plan),
    size: chunkSizeFor(input.config.batch ? BATCHED_CHUNK_SIZE : CHUNK_SIZE, totals),
  });
  return { runId, cells: queued.cells, jobs: queued.jobs };
}

export type EnqueueSuiteRunResult =
  | { ok: true; value: { runId: string; cells: number; jobs: number } }
  | { ok: false; code: "not_found" | "bad_request"; message: string };

/**
 * The dashboard's Run: queues a run of a stored suite's text, graded by any
 * worker (the dashboard's own in-process one included). Opens the queue on
 * the app's database for the time of the insert.
 */
export async function enqueueSuiteRun(input: {
  prisma: PrismaClient;
  databaseUrl: string;
  suiteId: string;
  yaml: string;
  judgeModel: string;
  toolVersion: string;
  /** `yaml` already loaded (the dashboard loads it on a worker thread, under a time limit). */
  loaded?: LoadResult;
  /** "Run as batch": the workers grade it through Message Batches (half price, up to 24 h). */
  batch?: boolean;
  /** Whether the server that grades the run has a key (its planned judge calls leave out the cells that will defer). */
  hasKey?: (keyEnv: string) => boolean;
}): Promise<EnqueueSuiteRunResult> {
  const row = UUID.test(input.suiteId)
    ? await input.prisma.suite.findUnique({ where: { id: input.suiteId }, select: { name: true } })
    : null;
  if (!row) return { ok: false, code: "not_found", message: "No such suite." };
  const loaded = input.loaded ?? loadSuite({ text: input.yaml, file: suiteFileName(row.name) });
  if (!loaded.ok) {
    const first = loaded.issues.find((i) => i.severity === "error") ?? loaded.issues[0];
    return {
      ok: false,
      code: "bad_request",
      message: `The suite does not load${first ? `: line ${first.line}: ${first.message}` : "."}`,
    };
  }
  const config: RunConfig = {
    // The file the suite's download is saved as: what a review's rerun command and a result's location name.
    file: suiteFileName(row.name),
    toolVersion: input.toolVersion,
    judgeModel: input.judgeModel,
    concurrency: DASHBOARD_CONCURRENCY,
    timeoutSeconds: DASHBOARD_TIMEOUT_SECONDS,
    ...(input.batch ? { batch: { pollSeconds: DASHBOARD_BATCH_POLL_SECONDS } } : {}),
  };
  const boss = await openQueue({ db: { url: input.databaseUrl }, poolSize: 1 });
  try {
    const value = await enqueuePlannedRun({
      prisma: input.prisma,
      boss,
      suite: loaded.value,
      suiteName: row.name,
      yaml: input.yaml,
      config,
      startedBy: "dashboard",
      ...(input.hasKey ? { hasKey: input.hasKey } : {}),
    });
    return { ok: true, value };
  } finally {
    await boss.stop({ graceful: false });
  }
}
