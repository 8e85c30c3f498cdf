import { createHash } from "node:crypto";
import os from "node:os";
import { cleanName } from "../config/clean-name";
import type { EvalResult } from "../engine/results/report";
import type { ReportHead } from "../engine/trust/report-totals";
import type { ReviewQuestion } from "../engine/trust/people/needs-person";
import { fillReviewQueue } from "./fill-review-queue";
import { Prisma, type PrismaClient } from "./generated/client";
import { createRunResults } from "./run-results";
import { isUuid } from "./uuid";
import { storeRunFigures } from "./run-figures";
import type { ComputeAgreement } from "./run-agreement";
import { createRunStatus, type RunStatus } from "./run-status";

// Repositories for suites, versions, runs and results: a run's status is run-status.ts's, its
// results' writes and reads run-results.ts's, spread into the one store.

export type { RunStatus } from "./run-status";
export type StartedBy = "cli" | "dashboard" | "worker";

/** What a run needs to be replayed or resumed elsewhere: the options it ran with. */
export interface RunConfig {
  file: string;
  /** Where the suite was run from: live evals start their stdio servers relative to it. */
  cwd?: string;
  toolVersion: string;
  judgeModel: string;
  concurrency: number;
  timeoutSeconds: number;
  maxCostUsd?: number;
  filter?: string;
  noCache?: boolean;
  /** `--batch`: the judge calls go through Message Batches, polled this often; `resume` keeps it so. */
  batch?: { pollSeconds: number };
  /**
   * Judge calls the plan expects (an upper bound: a tree takes one path, the cache merges equal
   * requests); the run page's progress counts calls against it.
   */
  plannedJudgeCalls?: number;
  /** The `--baseline` gate the run was held to: `report` applies it again, so it exits as the run did. */
  baseline?: { runId: string; maxDrop: number };
  /** `regrade`: the run whose stored candidates this run graded again (also its `runs.regrade_of`). */
  regradeOf?: string;
  /** The dashboard's Re-grade with… another judge: every eval judged by this model (`withJudge`). */
  regradeJudge?: string;
  /** What Re-grade with… left out and why (cells with no stored candidate, gone, new): its run page says so. */
  regradeNotes?: string[];
}

export interface StoredRun {
  id: string;
  suiteId: string;
  suiteName: string;
  yaml: string;
  status: RunStatus;
  startedBy: StartedBy;
  config: RunConfig;
  totalCells: number;
  cancelRequested: boolean;
  createdAt: Date;
  /** When it last started running (a resume starts it again); null while queued. */
  startedAt: Date | null;
  finishedAt: Date | null;
  /** A regrade's source run (`runs.regrade_of`). */
  regradeOf?: string;
}

export function contentHash(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

export function createRunStore(prisma: PrismaClient) {
  const toStored = (
    run: Prisma.RunGetPayload<{ include: { suite: true; suiteVersion: true } }>,
  ): StoredRun => ({
    id: run.id,
    suiteId: run.suiteId,
    suiteName: run.suite.name,
    yaml: run.suiteVersion.yaml,
    status: run.status as RunStatus,
    startedBy: run.startedBy as StartedBy,
    config: run.config as unknown as RunConfig,
    totalCells: run.totalCells,
    cancelRequested: run.cancelRequested,
    createdAt: run.createdAt,
    startedAt: run.startedAt,
    finishedAt: run.finishedAt,
    ...(run.regradeOf ? { regradeOf: run.regradeOf } : {}),
  });

  return {
    ...createRunStatus(prisma),
    // saveResult, saveResults, saveNewResults, results, resultKeys (run-results.ts).
    ...createRunResults(prisma),
    /** The suite by name (created on first use) and the version for this exact YAML (stored once per hash). */
    async saveSuiteVersion(input: {
      name: string;
      yaml: string;
    }): Promise<{ suiteId: string; suiteVersionId: string }> {
      // Named by a file path from the CLI: stored in the one normal form of names, as the dashboard's are.
      const name = cleanName(input.name);
      const suite = await prisma.suite.upsert({
        where: { name },
        create: { name },
        update: {},
      });
      const hash = contentHash(input.yaml);
      const version = await prisma.suiteVersion.upsert({
        where: { suiteId_contentHash: { suiteId: suite.id, contentHash: hash } },
        create: { suiteId: suite.id, contentHash: hash, yaml: input.yaml },
        update: {},
      });
      return { suiteId: suite.id, suiteVersionId: version.id };
    },

    async createRun(input: {
      suiteId: string;
      suiteVersionId: string;
      startedBy: StartedBy;
      config: RunConfig;
      totalCells: number;
      status?: RunStatus;
    }): Promise<string> {
      const run = await prisma.run.create({
        data: {
          suiteId: input.suiteId,
          suiteVersionId: input.suiteVersionId,
          startedBy: input.startedBy,
          host: os.hostname(),
          config: input.config as unknown as Prisma.InputJsonValue,
          regradeOf: input.config.regradeOf ?? null,
          totalCells: input.totalCells,
          status: input.status ?? "running",
          startedAt: input.status === "queued" ? null : new Date(),
        },
      });
      return run.id;
    },

    async getRun(id: string): Promise<StoredRun | undefined> {
      if (!isUuid(id)) return undefined;
      const run = await prisma.run.findUnique({
        where: { id },
        include: { suite: true, suiteVersion: true },
      });
      // A calibration run (calibration-store.ts) is not an eval run to resume, report, or compare with.
      return run && run.kind === "eval" ? toStored(run) : undefined;
    },

    /** The newest eval run of any suite, whatever its status (`report latest`). */
    async newestRunId(): Promise<string | undefined> {
      const run = await prisma.run.findFirst({
        where: { kind: "eval" },
        orderBy: { createdAt: "desc" },
        select: { id: true },
      });
      return run?.id;
    },

    /** The newest finished run of a suite, other than `excludeRunId`. */
    async latestRun(input: {
      suiteName: string;
      excludeRunId?: string;
    }): Promise<StoredRun | undefined> {
      const run = await prisma.run.findFirst({
        where: {
          suite: { name: cleanName(input.suiteName) },
          kind: "eval",
          status: "completed",
          ...(input.excludeRunId ? { id: { not: input.excludeRunId } } : {}),
        },
        orderBy: { createdAt: "desc" },
        include: { suite: true, suiteVersion: true },
      });
      return run ? toStored(run) : undefined;
    },

    /**
     * Records the run's totals and final status. `reused` defaults to the report's judge-cache
     * figures (reusedColumns). A streamed run gives its figures without results, and the review
     * queue's questions it gathered as it went.
     */
    async finishRun(input: {
      runId: string;
      report: ReportHead & { results?: readonly EvalResult[] };
      questions?: readonly ReviewQuestion[];
      status: RunStatus;
      reused?: { calls: number; savedUsd: number };
      /** When it finished (default: now); the CLI gives its report's, so that both say one duration. */
      finishedAt?: Date;
      /** How its judge agreement is computed (run-figures.ts; default: on this thread). */
      computeAgreement?: ComputeAgreement;
    }): Promise<void> {
      const s = input.report.summary;
      const reused = input.reused ?? reusedColumns(input.report);
      await prisma.run.update({
        where: { id: input.runId },
        data: {
          status: input.status,
          finishedAt: input.finishedAt ?? new Date(),
          passed: s.passed,
          failed: s.failed,
          deferred: s.deferred,
          judgeErrors: s.judgeErrors,
          skipped: s.skipped,
          judgeCalls: s.judgeCalls,
          costUsd: s.costUsd,
          inputTokens: s.usage.input,
          outputTokens: s.usage.output,
          cacheReadTokens: s.usage.cacheRead,
          cacheWriteTokens: s.usage.cacheWrite,
          cacheWrite1hTokens: s.usage.cacheWrite1h ?? 0,
          reusedCalls: reused.calls,
          savedUsd: reused.savedUsd,
        },
      });
      // Its counts and heatmap, counted once now (run-figures.ts): the page of a finished run reads them.
      await storeRunFigures(prisma, {
        runId: input.runId,
        ...(input.computeAgreement ? { computeAgreement: input.computeAgreement } : {}),
      });
      // What the judges could not settle goes to the suite's review queue (once, however often a run is finished).
      await fillReviewQueue(prisma, {
        runId: input.runId,
        ...(input.report.results ? { results: input.report.results } : {}),
        ...(input.questions ? { questions: input.questions } : {}),
      });
    },
  };
}

export type RunStore = ReturnType<typeof createRunStore>;

/**
 * A finished run's reused_calls and saved_usd columns, from the report's
 * judge-cache saving. An unpriced saving is stored as 0: the page never shows
 * the column, it prices the run's calls itself (run-views.ts, run-progress.ts).
 */
function reusedColumns(report: ReportHead): { calls: number; savedUsd: number } {
  const { calls, saved } = report.summary.savings.judgeCache;
  return { calls, savedUsd: saved.usd ?? 0 };
}
