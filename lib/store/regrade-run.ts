import type { PgBoss } from "pg-boss";
import { loadSuite } from "../config/load-suite";
import type { LoadResult, SuiteConfig } from "../config/types";
import { planCells, type PlanOptions } from "../engine/plan/plan-suite";
import { plural } from "../engine/results/format-score";
import { withJudge } from "../engine/trust/regrade/with-judge";
import { unreadDatasetEvals, unreadDatasetNote } from "../engine/trust/regrade/unread-datasets";
import { modelNameProblem } from "../config/check-providers";
import { resolveWithKeys } from "../engine/plan/resolve-provider";
import type { PrismaClient } from "./connection";
import { matchRegradeSource } from "./regrade-source";
import { createRunStore, type RunConfig, type StoredRun } from "./run-store";
import { CHUNK_SIZE, chunkSizeFor, enqueueChunks, openQueue } from "./grade-queue";
import { UUID } from "./uuid";

// The dashboard's Re-grade with…: a stored run's candidates graded again by
// another version of its suite or another judge, as a queued run like any
// other (run-worker.ts grades it), linked to its source (`runs.regrade_of`).
// Its generated and live cells get their candidates from the source's stored
// results (`replayStoredCandidates`): no generation, no agent call; the judge
// cache answers the evals whose rubric did not change.

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

async function* matchedCells(plan: PlanOptions, cells: ReadonlySet<string>) {
  for await (const cell of planCells(plan)) if (cells.has(cell.id)) yield cell;
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
  /**
   * The keys of the workers that will grade the regrade, when known (the dashboard's own): its
   * planned judge calls are those they will make, a cell whose key is missing deferring with none,
   * as the dashboard's Run plans them (enqueue-run.ts).
   */
  hasKey?: (keyEnv: string) => boolean;
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

  // Matched by result id (eval name and cell), as `rubric-studio regrade` matches them, without
  // reading the source whole (regrade-source.ts).
  const plan = {
    suite,
    defaultModel: judgeModel,
    agentsReplayed: true,
    // Counted as the workers will grade them: with their keys where known (a cell whose key they
    // lack defers, no call), else as if every key were set (another vendor's judges call too).
    // The cells matched are the same either way: a deferred cell keeps its id.
    resolveModel: resolveWithKeys({ declared: suite.providers, hasKey: input.hasKey }),
  };
  // An eval of a dataset file plans no item here: its results are not gone, its one cell not new.
  const unread = unreadDatasetEvals(suite);
  const match = await matchRegradeSource({
    prisma: input.prisma,
    sourceRunId: run.id,
    plan,
    unread: new Set(unread.keys()),
  });
  const { gone, added, empty } = match;
  const notes = [
    ...[...match.unread].map(([name, results]) =>
      unreadDatasetNote({ unread: unread.get(name)!, results, runId: run.id }),
    ),
    ...(empty.count
      ? [
          `${plural(empty.count, "cell")} of run ${run.id.slice(0, 8)} recorded no candidate to grade again (${whyNone(empty.statuses)} there): not re-graded; produce them with a new run.`,
        ]
      : []),
    ...(gone.count
      ? [`${plural(gone.count, "result")} of the run no longer in this version: not re-graded.`]
      : []),
    ...(added.count
      ? [
          `${plural(added.count, "cell")} new in this version, with no stored candidate: run the suite to grade them.`,
        ]
      : []),
  ];
  const cells = match.cells.size;
  if (cells === 0)
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
    plannedJudgeCalls: match.judgeCalls,
  };
  // The source's baseline gate and batch mode are its own, not the regrade's.
  delete config.baseline;
  delete config.batch;
  const runId = await store.createRun({
    suiteId: run.suiteId,
    suiteVersionId: version.id,
    startedBy: "dashboard",
    config,
    totalCells: cells,
    status: "queued",
  });
  const boss: PgBoss = await openQueue({ db: { url: input.databaseUrl }, poolSize: 1 });
  try {
    await enqueueChunks({
      boss,
      runId,
      // The plan walked again, its cells taken as they come: never held.
      cells: matchedCells(plan, match.cells),
      size: chunkSizeFor(CHUNK_SIZE, { cells, judgeCalls: match.judgeCalls }),
    });
  } finally {
    await boss.stop({ graceful: false });
  }
  return { ok: true, value: { runId, cells, notes } };
}
