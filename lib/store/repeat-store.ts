import type { FlipRate, RepeatSummary } from "../engine/results/trust";
import type { Report } from "../engine/results/report";
import { redactDeep } from "../engine/results/redact-secrets";
import type { Prisma, PrismaClient } from "./generated/client";
import { createRunStore, type RunConfig } from "./run-store";
import { UUID } from "./uuid";

// `eval --repeat N --store`: a repeated run kept as one run of kind "eval",
// every result once per repeat ("name [repeat 2/3]", its own result key), with
// the number of repeats and the flip rate per eval and criterion on the run
// (runs.repeats, runs.flip_rates: the engine's FlipRate[] whole), so the
// dashboard can show how stable the judge was.

export function createRepeatStore(prisma: PrismaClient) {
  return {
    /**
     * Stores a finished repeated run of the suite named `suiteName` (created on first use) at this
     * exact YAML; the run's id.
     */
    async saveRepeatedRun(input: {
      suiteName: string;
      yaml: string;
      report: Report & { repeat: RepeatSummary };
      config: RunConfig;
    }): Promise<string> {
      const runs = createRunStore(prisma);
      const { report } = input;
      const { suiteId, suiteVersionId } = await runs.saveSuiteVersion({
        name: input.suiteName,
        yaml: input.yaml,
      });
      const runId = await runs.createRun({
        suiteId,
        suiteVersionId,
        startedBy: "cli",
        config: { ...input.config, repeat: report.repeat.runs } as RunConfig,
        totalCells: report.results.length,
      });
      for (const result of report.results) await runs.saveResult(runId, redactDeep(result));
      await prisma.run.update({
        where: { id: runId },
        data: {
          repeats: report.repeat.runs,
          flipRates: redactDeep(report.repeat.flips) as unknown as Prisma.InputJsonValue,
        },
      });
      await runs.finishRun({
        runId,
        report,
        status: "completed",
        reused: { calls: 0, savedUsd: 0 },
      });
      return runId;
    },

    /** A run's repeats and flip rates; undefined for a run that was not repeated (or does not exist). */
    async flipRates(runId: string): Promise<RepeatSummary | undefined> {
      if (!UUID.test(runId)) return undefined;
      const run = await prisma.run.findUnique({
        where: { id: runId },
        select: { repeats: true, flipRates: true },
      });
      if (!run || run.repeats < 2 || !Array.isArray(run.flipRates)) return undefined;
      return { runs: run.repeats, flips: run.flipRates as unknown as FlipRate[] };
    },
  };
}

export type RepeatStore = ReturnType<typeof createRepeatStore>;
