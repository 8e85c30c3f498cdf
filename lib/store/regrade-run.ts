import type { PgBoss } from "pg-boss";
import { loadSuite } from "../config/load-suite";
import type { LoadResult, SuiteConfig } from "../config/types";
import { planSuite } from "../engine/plan/plan-suite";
import { plural } from "../engine/results/format-score";
import { withJudge } from "../engine/trust/regrade/with-judge";
import { unreadDatasetEvals, unreadDatasetNote } from "../engine/trust/regrade/unread-datasets";
import { modelNameProblem } from "../config/check-providers";
import { resolveAsIfKeyed } from "../engine/plan/resolve-provider";
import type { PrismaClient } from "./connection";
import { createRunStore, type RunConfig, type StoredRun } from "./run-store";
import { CHUNK_SIZE, chunkSizeFor, enqueueChunks, openQueue } from "./grade-queue";

// The dashboard's Re-grade with…: a stored run's candidates graded again by
// another version of its suite or another judge, as a queued run like any
// other (run-worker.ts grades it), linked to its source (`runs.regrade_of`).
// Its generated and live cells get their candidates from the source's stored
// results (`replayStoredCandidates`): no generation, no agent call; the judge
// cache answers the evals whose rubric did not change.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A judge model's name as typed: any provider's model id fits. */
export const MAX_JUDGE_NAME = 200;

export type RegradeFailure = {
  ok: false;
  code: "not_found" | "bad_request" | "too_complex" | "unavailable" | "busy" | "failed";
  message: string;
};
export type LoadText = (input: {
  text: string;
  file: string;
}) => Promise<{ ok: true; value: LoadResult } | RegradeFailure>;

export interface RegradeStarted {
  runId: string;
  /** Cells queued: those of the source run that the suite still plans. */
  cells: number;
  /** What was left out and why (cells gone from the suite, new ones, ones with no stored candidate). */
  notes: string[];
}

/** A cell of the source run, as far as replaying it goes. */
interface SourceCell {
  key: string;
  eval: string;
  status: string;
  /** Nothing recorded (`hasStoredCandidate`: its generation or agent call failed, it deferred): it cannot be graded again. */
  noCandidate: boolean;
}

async function sourceCells(prisma: PrismaClient, runId: string): Promise<SourceCell[]> {
  const rows = await prisma.$queryRaw<
    { key: string; eval: string; status: string; no_candidate: boolean }[]
  >`
    SELECT result_key AS key, eval_name AS eval, status,
      (data->'candidate'->'transcript' IS NULL AND data->'candidate'->'response' IS NULL) AS no_candidate
    FROM eval_results WHERE run_id = ${runId}::uuid`;
  return rows.map((r) => ({
    key: r.key,
    eval: r.eval,
    status: r.status,
    noCandidate: r.no_candidate,
  }));
}

/** Why a cell's candidate was not recorded, from its status in the source run. */
function whyNone(statuses: Map<string, number>): string {
  return [...statuses]
    .map(([status, n]) => `${n} ${status === "judge_error" ? "judge error" : status}`)
    .join(", ");
}

/** The suite text a regrade grades with: one stored version of the source's suite, by default its newest. */
async function versionOf(input: {
  prisma: PrismaClient;
  run: StoredRun;
  versionId?: string;
}): Promise<{ id: string; yaml: string } | RegradeFailure> {
  if (input.versionId !== undefined) {
    const version = UUID.test(input.versionId)
      ? await input.prisma.suiteVersion.findFirst({
          where: { id: input.versionId, suiteId: input.run.suiteId },
          select: { id: true, yaml: true },
        })
      : null;
    return (
      version ?? {
        ok: false,
        code: "not_found",
        message: `Suite ${input.run.suiteName} has no version ${input.versionId}: it may have been deleted; reload the page to see its versions.`,
      }
    );
  }
  const newest = await input.prisma.suiteVersion.findFirst({
    where: { suiteId: input.run.suiteId },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    select: { id: true, yaml: true },
  });
  return newest ?? { ok: false, code: "not_found", message: "The run's suite has no version." };
}

/**
 * Queues a regrade of a finished run: the suite's newest version, or `versionId`, optionally every
 * eval judged by `judge`. Refused with a code (never thrown) when the run or version is not there,
 * the run is still going, or none of its cells has a candidate to grade again.
 */
export async function enqueueRegrade(input: {
  prisma: PrismaClient;
  databaseUrl: string;
  sourceRunId: string;
  versionId?: string;
  judge?: string;
  /** The server's default judge model and the tool's version, as for the dashboard's Run. */
  judgeModel: string;
  toolVersion: string;
  /** How the version's text is loaded (the dashboard: on a worker thread, under a time limit). */
  load?: LoadText;
}): Promise<{ ok: true; value: RegradeStarted } | RegradeFailure> {
  const store = createRunStore(input.prisma);
  const run = UUID.test(input.sourceRunId) ? await store.getRun(input.sourceRunId) : undefined;
  if (!run) return { ok: false, code: "not_found", message: "No run with that id." };
  if (run.status === "queued" || run.status === "running")
    return {
      ok: false,
      code: "bad_request",
      message: `Run ${run.id} is still ${run.status}: re-grade it once it has finished.`,
    };
  const judge = input.judge?.trim();
  if (input.judge !== undefined && (!judge || judge.length > MAX_JUDGE_NAME))
    return {
      ok: false,
      code: "bad_request",
      message: `A judge model is a name of 1 to ${MAX_JUDGE_NAME} characters.`,
    };
  const version = await versionOf({ prisma: input.prisma, run, versionId: input.versionId });
  if ("ok" in version) return version;
  const file = run.config.file;
  const loading = input.load
    ? await input.load({ text: version.yaml, file })
    : { ok: true as const, value: loadSuite({ text: version.yaml, file }) };
  if (!loading.ok) return loading;
  if (!loading.value.ok) {
    const first = loading.value.issues.find((i) => i.severity === "error");
    return {
      ok: false,
      code: "bad_request",
      message: `That version of the suite does not load${first ? `: line ${first.line}: ${first.message}` : "."}`,
    };
  }
  // A judge whose provider the suite does not know would defer every cell: said now, nothing queued.
  const problem =
    judge && modelNameProblem(judge, Object.keys(loading.value.value.providers ?? {}));
  if (problem) return { ok: false, code: "bad_request", message: `Judge model: ${problem}.` };
  const suite: SuiteConfig = judge ? withJudge(loading.value.value, judge) : loading.value.value;
  const judgeModel = judge ?? run.config.judgeModel ?? input.judgeModel;

  // Matched by result id (eval name and cell), as `rubric-studio regrade` matches them.
  const planned = planSuite({
    suite,
    defaultModel: judgeModel,
    agentsReplayed: true,
    // Counted as the workers will grade them: another vendor's judges make their calls too.
    resolveModel: resolveAsIfKeyed(suite.providers),
  });
  const source = new Map((await sourceCells(input.prisma, run.id)).map((c) => [c.key, c]));
  const plannedIds = new Set(planned.map((c) => c.id));
  // An eval of a dataset file plans no item here: its results are not gone, its one cell not new.
  const unread = unreadDatasetEvals(suite);
  const unreadResults = new Map<string, number>();
  let gone = 0;
  for (const cell of source.values()) {
    if (unread.has(cell.eval))
      unreadResults.set(cell.eval, (unreadResults.get(cell.eval) ?? 0) + 1);
    else if (!plannedIds.has(cell.key)) gone++;
  }
  const added = planned.filter((c) => !source.has(c.id) && !unread.has(c.eval.name)).length;
  const missing = new Map<string, number>();
  const cells = planned.filter((cell) => {
    const stored = source.get(cell.id);
    if (!stored) return false;
    if (stored.noCandidate) missing.set(stored.status, (missing.get(stored.status) ?? 0) + 1);
    return !stored.noCandidate;
  });
  const missed = [...missing.values()].reduce((a, b) => a + b, 0);
  const notes = [
    ...[...unreadResults].map(([name, results]) =>
      unreadDatasetNote({ unread: unread.get(name)!, results, runId: run.id }),
    ),
    ...(missed
      ? [
          `${plural(missed, "cell")} of run ${run.id.slice(0, 8)} recorded no candidate to grade again (${whyNone(missing)} there): not re-graded; produce them with a new run.`,
        ]
      : []),
    ...(gone
      ? [`${plural(gone, "result")} of the run no longer in this version: not re-graded.`]
      : []),
    ...(added
      ? [
          `${plural(added, "cell")} new in this version, with no stored candidate: run the suite to grade them.`,
        ]
      : []),
  ];
  if (cells.length === 0)
    return {
      ok: false,
      code: "bad_request",
      message: `Nothing to re-grade: ${notes.join(" ") || "the run has no results."}`,
    };

  const config: RunConfig = {
    ...run.config,
    toolVersion: input.toolVersion,
    judgeModel,
    regradeOf: run.id,
    ...(judge ? { regradeJudge: judge } : {}),
    ...(notes.length ? { regradeNotes: notes } : {}),
    plannedJudgeCalls: cells.reduce((n, c) => n + c.judgeCalls, 0),
  };
  // The source's baseline gate and batch mode are its own, not the regrade's.
  delete config.baseline;
  delete config.batch;
  const runId = await store.createRun({
    suiteId: run.suiteId,
    suiteVersionId: version.id,
    startedBy: "dashboard",
    config,
    totalCells: cells.length,
    status: "queued",
  });
  const boss: PgBoss = await openQueue({ db: { url: input.databaseUrl }, poolSize: 1 });
  try {
    await enqueueChunks({
      boss,
      runId,
      cells,
      size: chunkSizeFor(CHUNK_SIZE, {
        cells: cells.length,
        judgeCalls: config.plannedJudgeCalls ?? 0,
      }),
    });
  } finally {
    await boss.stop({ graceful: false });
  }
  return { ok: true, value: { runId, cells: cells.length, notes } };
}
