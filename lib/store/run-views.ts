import type { EvalResult, EvalStatus, OutcomeCounts, RunsCompared } from "../engine/results/report";
import { readStoredResult } from "../engine/results/stored-result";
import { Prisma, type PrismaClient } from "./generated/client";
import type { RunStatus, StartedBy } from "./run-store";
import { compareStoredRuns } from "./run-comparison";
import { callsByModel, type StoredModelCalls, unpricedCallsByRun } from "./run-call-totals";
import { versionNumbers } from "./version-numbers";
import { createAgreementViews } from "./run-agreement";
import {
  countsOf,
  keptFigures,
  keptFiguresOf,
  matrixCellsOf,
  skippedByOf,
  type MatrixCell,
} from "./run-figures";
import { UUID } from "./uuid";

export type { MatrixCell } from "./run-figures";

// The dashboard's reads of run history that are not in run-queries.ts (which
// holds the heavy, benchmarked ones: result pages, trends, per-model figures):
// the runs list, one run's figures, one stored result, two runs compared and
// the matrix heatmap's cells. Plain data out, so pages pass it to components.

export interface RunListItem {
  id: string;
  suiteId: string;
  suiteName: string;
  status: RunStatus;
  startedBy: StartedBy;
  createdAt: Date;
  finishedAt: Date | null;
  totalCells: number;
  counts: Record<EvalStatus, number>;
  costUsd: number;
  /** Judge calls made whose model had no price: the cost reads "unpriced" for them. */
  unpricedCalls: number;
  /** The suite version it graded, numbered as the editor's versions panel numbers them (v1 the oldest). */
  version: { id: string; number: number };
  /** A regrade's source run (Re-grade with…, `rubric-studio regrade`), else null. */
  regradeOf: string | null;
}

export interface RunOverview extends RunListItem {
  startedAt: Date | null;
  /** Judge calls finished so far (made or reused), counted from the run's call links while it runs. */
  callsDone: number;
  /** Judge calls the plan expected; null for runs stored before it was recorded. */
  callsPlanned: number | null;
  /** With the skipped results per cause (budget, cancelled, interrupted). */
  counts: OutcomeCounts;
  /** Counted from the stored results, so a run still in progress shows what has landed. */
  results: number;
  vacuous: number;
  judgeCalls: number;
  tokens: { input: number; output: number; cacheRead: number; cacheWrite: number };
  reusedCalls: number;
  /**
   * The run's judge calls summed per model, provider and batching, from its call links: what the
   * engine prices its savings from (lib/engine/cost/savings.ts).
   */
  callsByModel: StoredModelCalls[];
  /** Judge calls made whose model had no price (their cost is not in costUsd). */
  unpricedCalls: number;
  /** A cancel was asked for (the page says "cancelling…" until the run ends, also after a reload). */
  cancelRequested: boolean;
  error: string | null;
  /** The calls that made the candidates, counted when the run finished (null: running, or kept none). */
  generationCalls: number | null;
}

type RunRow = Awaited<ReturnType<PrismaClient["run"]["findMany"]>>[number] & {
  suite: { name: string };
};

function listItemOf(
  run: RunRow,
  versions: Map<string, number>,
  unpriced: Map<string, number>,
): RunListItem {
  return {
    id: run.id,
    suiteId: run.suiteId,
    suiteName: run.suite.name,
    status: run.status as RunStatus,
    startedBy: run.startedBy as StartedBy,
    createdAt: run.createdAt,
    finishedAt: run.finishedAt,
    totalCells: run.totalCells,
    counts: {
      passed: run.passed,
      failed: run.failed,
      deferred: run.deferred,
      judge_error: run.judgeErrors,
      skipped: run.skipped,
    },
    costUsd: run.costUsd,
    unpricedCalls: unpriced.get(run.id) ?? 0,
    version: { id: run.suiteVersionId, number: versions.get(run.suiteVersionId) ?? 0 },
    regradeOf: run.regradeOf,
  };
}

export function createRunViews(prisma: PrismaClient) {
  return {
    // hasSeveralJudges and runAgreement (run-agreement.ts).
    ...createAgreementViews(prisma),
    /** Newest first; of one suite when `suiteId` is given. */
    async listRuns(input: { suiteId?: string; limit: number }): Promise<RunListItem[]> {
      if (input.suiteId !== undefined && !UUID.test(input.suiteId)) return [];
      const runs = await prisma.run.findMany({
        // Eval runs only: calibration runs have their own view (calibration-store.ts).
        where: input.suiteId ? { suiteId: input.suiteId, kind: "eval" } : { kind: "eval" },
        orderBy: [{ createdAt: "desc" }, { id: "desc" }],
        take: Math.max(1, Math.min(500, Math.floor(input.limit))),
        include: { suite: { select: { name: true } } },
      });
      const versions = await versionNumbers(prisma, runs);
      const unpriced = await unpricedCallsByRun(
        prisma,
        runs.map((r) => r.id),
      );
      return runs.map((run) => listItemOf(run, versions, unpriced));
    },

    async suite(id: string): Promise<{ id: string; name: string } | undefined> {
      if (!UUID.test(id)) return undefined;
      return (
        (await prisma.suite.findUnique({ where: { id }, select: { id: true, name: true } })) ??
        undefined
      );
    },

    async runOverview(runId: string): Promise<RunOverview | undefined> {
      if (!UUID.test(runId)) return undefined;
      const run = await prisma.run.findUnique({
        where: { id: runId },
        include: { suite: { select: { name: true } } },
      });
      // A calibration run is drawn by the suite's calibration view, not as an eval run.
      if (!run || run.kind !== "eval") return undefined;
      // The run's columns are totals written when it finishes; the results'
      // own rows are the truth while it is still running. One pass over the run's results gives
      // both the counts and the vacuous ones (a 10,000-result run page: `npm run bench:ui`); a
      // finished run kept them when it ended (run-figures.ts: a million-result run's page reads
      // one row).
      const kept = keptFigures(run);
      const { counts, results, vacuous, costUsd, judgeCalls } = kept
        ? { ...kept, costUsd: run.costUsd, judgeCalls: run.judgeCalls }
        : await countsOf(prisma, runId);
      const finished = run.finishedAt !== null;
      // A finished run's columns hold its totals; its calls per model are read all the same, to
      // price what the caches saved.
      const [versions, models] = await Promise.all([
        versionNumbers(prisma, [run]),
        callsByModel(prisma, runId),
      ]);
      const sum = (
        key: "calls" | "reused" | "unpriced" | "input" | "output" | "cacheRead" | "cacheWrite",
      ) => models.reduce((n, m) => n + m[key], 0);
      const live = finished
        ? undefined
        : {
            calls: sum("calls"),
            reused: sum("reused"),
            input: sum("input"),
            output: sum("output"),
            cacheRead: sum("cacheRead"),
            cacheWrite: sum("cacheWrite"),
          };
      const planned = (run.config as { plannedJudgeCalls?: unknown } | null)?.plannedJudgeCalls;
      return {
        ...listItemOf(run, versions, new Map([[runId, sum("unpriced")]])),
        counts:
          counts.skipped > 0
            ? { ...counts, skippedBy: kept?.skippedBy ?? (await skippedByOf(prisma, runId)) }
            : counts,
        results,
        vacuous,
        startedAt: run.startedAt,
        // Calls done counts reused verdicts too (progress); "judge calls" only those made, as the run's totals do.
        // A finished run's judge calls count each repair request too (billed, never planned): done
        // is its calls, as while it ran (a run with no call links, imported, from its totals).
        callsDone: live ? live.calls : sum("calls") || run.judgeCalls + run.reusedCalls,
        callsPlanned: typeof planned === "number" ? planned : null,
        costUsd: finished ? run.costUsd : costUsd,
        judgeCalls: live ? live.calls - live.reused : run.judgeCalls,
        tokens: live
          ? {
              input: live.input,
              output: live.output,
              cacheRead: live.cacheRead,
              cacheWrite: live.cacheWrite,
            }
          : {
              input: run.inputTokens,
              output: run.outputTokens,
              cacheRead: run.cacheReadTokens,
              cacheWrite: run.cacheWriteTokens,
            },
        reusedCalls: live ? live.reused : run.reusedCalls,
        callsByModel: models.map((m) => ({
          model: m.model,
          usage: {
            input: m.input,
            output: m.output,
            cacheRead: m.cacheRead,
            cacheWrite: m.cacheWrite,
            ...(m.cacheWrite1h > 0 ? { cacheWrite1h: m.cacheWrite1h } : {}),
          },
          reusedCalls: m.reused,
          reusedUsd: m.reusedUsd,
          madeUsd: m.madeUsd,
          reusedUnpriced: m.reusedUnpriced,
          ...(m.batched ? { batchedCalls: m.calls } : {}),
          provider: m.provider,
          pricedCalls: m.priced,
        })),
        cancelRequested: run.cancelRequested,
        error: run.error,
        generationCalls: kept?.generationCalls ?? null,
      };
    },

    /** One stored result, whole, as the reporters render it. */
    async evalResult(input: { runId: string; resultKey: string }): Promise<EvalResult | undefined> {
      if (!UUID.test(input.runId)) return undefined;
      const row = await prisma.evalResultRow.findUnique({
        where: { runId_resultKey: { runId: input.runId, resultKey: input.resultKey } },
        select: { data: true },
      });
      return row ? readStoredResult(row.data as unknown as EvalResult) : undefined;
    },

    /** The distinct eval names of a run, for one trend chart each: in the suite's order (the evals as written). */
    async evalNames(runId: string): Promise<string[]> {
      if (!UUID.test(runId)) return [];
      const rows = await prisma.evalResultRow.groupBy({
        by: ["evalName"],
        where: { runId },
        _min: { suiteOrder: true },
        orderBy: [{ _min: { suiteOrder: "asc" } }, { evalName: "asc" }],
      });
      return rows.map((r) => r.evalName);
    },

    /**
     * `head` against `base` with the engine's own baseline rule (the same one `eval --baseline`
     * gates on), so the page and the CLI never disagree: counted in SQL, the worst rows read
     * (run-comparison.ts), never either run whole.
     */
    compareRuns(input: {
      baseRunId: string;
      headRunId: string;
      maxDrop: number;
      rows?: number;
    }): Promise<RunsCompared | undefined> {
      return compareStoredRuns(prisma, input);
    },

    /** The heatmap of a run's matrix cells: candidate model, judge model × prompt, over every eval with a matrix (or one eval). */
    async matrixCells(input: { runId: string; evalName?: string }): Promise<MatrixCell[]> {
      if (!UUID.test(input.runId)) return [];
      if (!input.evalName) {
        const kept = await keptFiguresOf(prisma, input.runId);
        if (kept) return kept.cells;
      }
      return matrixCellsOf(prisma, input);
    },
  };
}

export type RunViews = ReturnType<typeof createRunViews>;
