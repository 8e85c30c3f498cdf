import os from "node:os";
import type { CalibrationResult, CriterionCalibration } from "../engine/results/trust";
import type { Prisma, PrismaClient } from "./generated/client";
import { overMaxErrorOf } from "../engine/trust/calibration/labellers";
import { fillReviewQueue } from "./fill-review-queue";
import { createRunStore, type RunConfig, type StartedBy } from "./run-store";
import { UUID } from "./uuid";

// Calibration history: a calibration is a Run row of kind "calibration" (so it
// has a suite version, who started it, when, its judge calls and cost) with
// one calibration_results row per criterion, the engine's CriterionCalibration
// whole. Eval run lists, trends and baselines read kind "eval" only.

export interface CalibrationRunConfig extends RunConfig {
  tolerance: number;
  maxError?: number;
}

export interface StoredCalibration {
  runId: string;
  suiteId: string;
  suiteName: string;
  startedBy: StartedBy;
  createdAt: Date;
  /** The suite text it calibrated. */
  yaml: string;
  result: CalibrationResult;
}

export interface MaePoint {
  runId: string;
  createdAt: Date;
  mae: number | null;
}

/** One criterion's MAE across calibration runs, oldest first: its drift. */
export interface MaeHistory {
  eval: string;
  item: string;
  points: MaePoint[];
}

export function createCalibrationStore(prisma: PrismaClient) {
  /** Stores a finished calibration against a known suite version. */
  async function saveCalibrationOf(input: {
    suiteId: string;
    suiteVersionId: string;
    result: CalibrationResult;
    startedBy: StartedBy;
    config: CalibrationRunConfig;
  }): Promise<string> {
    const { result } = input;
    const now = new Date();
    const runId = await prisma.$transaction(async (tx) => {
      const run = await tx.run.create({
        data: {
          suiteId: input.suiteId,
          suiteVersionId: input.suiteVersionId,
          kind: "calibration",
          startedBy: input.startedBy,
          host: os.hostname(),
          config: input.config as unknown as Prisma.InputJsonValue,
          status: "completed",
          startedAt: now,
          finishedAt: now,
          totalCells: result.probes,
          judgeErrors: result.ungraded,
          judgeCalls: result.judgeCalls,
          costUsd: result.costUsd,
          inputTokens: result.usage.input,
          outputTokens: result.usage.output,
          cacheReadTokens: result.usage.cacheRead,
          cacheWriteTokens: result.usage.cacheWrite,
          cacheWrite1hTokens: result.usage.cacheWrite1h ?? 0,
        },
      });
      if (result.criteria.length > 0) {
        await tx.calibrationResult.createMany({
          data: result.criteria.map((c, position) => ({
            runId: run.id,
            evalName: c.eval,
            position,
            // A row of automated labels is its own drift series, named so.
            criterion: c.labelledBy ? `${c.item} (${c.labelledBy} labels)` : c.item,
            mae: c.mae,
            data: c as unknown as Prisma.InputJsonValue,
          })),
        });
      }
      return run.id;
    });
    await fillReviewQueue(prisma, { runId, calibration: result });
    return runId;
  }

  return {
    saveCalibrationOf,
    /** Stores a finished calibration of the suite named `suiteName` (created on first use) at this exact YAML. */
    async saveCalibration(input: {
      suiteName: string;
      yaml: string;
      result: CalibrationResult;
      startedBy: StartedBy;
      config: CalibrationRunConfig;
    }): Promise<string> {
      const { suiteId, suiteVersionId } = await createRunStore(prisma).saveSuiteVersion({
        name: input.suiteName,
        yaml: input.yaml,
      });
      return saveCalibrationOf({
        suiteId,
        suiteVersionId,
        result: input.result,
        startedBy: input.startedBy,
        config: input.config,
      });
    },

    /** The newest calibration of a suite, rebuilt as the engine's plain result. */
    async latestCalibration(suiteId: string): Promise<StoredCalibration | undefined> {
      if (!UUID.test(suiteId)) return undefined;
      const run = await prisma.run.findFirst({
        where: { suiteId, kind: "calibration" },
        orderBy: [{ createdAt: "desc" }, { id: "desc" }],
        include: {
          suite: { select: { name: true } },
          suiteVersion: { select: { yaml: true } },
          calibrations: { orderBy: { position: "asc" } },
        },
      });
      if (!run) return undefined;
      const config = run.config as unknown as Partial<CalibrationRunConfig>;
      const criteria = run.calibrations.map((row) => row.data as unknown as CriterionCalibration);
      const maxError = config.maxError;
      const result: CalibrationResult = {
        tolerance: config.tolerance ?? 0.25,
        ...(maxError !== undefined ? { maxError } : {}),
        criteria,
        overMaxError: overMaxErrorOf(criteria, maxError),
        probes: run.totalCells,
        ungraded: criteria.reduce((n, c) => n + c.items.length - c.graded, 0),
        judgeCalls: run.judgeCalls,
        costUsd: run.costUsd,
        usage: {
          input: run.inputTokens,
          output: run.outputTokens,
          cacheRead: run.cacheReadTokens,
          cacheWrite: run.cacheWriteTokens,
          ...(run.cacheWrite1hTokens > 0 ? { cacheWrite1h: run.cacheWrite1hTokens } : {}),
        },
      };
      return {
        runId: run.id,
        suiteId: run.suiteId,
        suiteName: run.suite.name,
        startedBy: run.startedBy as StartedBy,
        createdAt: run.createdAt,
        yaml: run.suiteVersion.yaml,
        result,
      };
    },

    /** Per criterion, its MAE in each of the suite's newest `limit` calibration runs, oldest first. */
    async maeHistory(input: { suiteId: string; limit: number }): Promise<MaeHistory[]> {
      if (!UUID.test(input.suiteId)) return [];
      const runs = await prisma.run.findMany({
        where: { suiteId: input.suiteId, kind: "calibration" },
        orderBy: [{ createdAt: "desc" }, { id: "desc" }],
        take: Math.max(1, Math.min(200, Math.floor(input.limit))),
        select: {
          id: true,
          createdAt: true,
          calibrations: {
            select: { evalName: true, criterion: true, mae: true },
            orderBy: { position: "asc" },
          },
        },
      });
      const series = new Map<string, MaeHistory>();
      for (const run of runs.reverse()) {
        for (const row of run.calibrations) {
          const key = `${row.evalName}\u0000${row.criterion}`;
          const entry = series.get(key) ?? { eval: row.evalName, item: row.criterion, points: [] };
          entry.points.push({ runId: run.id, createdAt: run.createdAt, mae: row.mae });
          series.set(key, entry);
        }
      }
      return [...series.values()];
    },
  };
}

export type CalibrationStore = ReturnType<typeof createCalibrationStore>;
