import type { BaselineVerdict } from "../engine/trust/compare-baseline";
import { Prisma, type PrismaClient } from "./generated/client";
import { createRegradeFlips, criteriaVerdicts, MAX_FILTER_OPTIONS } from "./regrade-flips";
import { versionNumbers } from "./version-numbers";
import { UUID } from "./uuid";

export {
  FLIPS_PAGE_SIZE,
  type FlipCounts,
  type FlipFilter,
  type FlipPage,
  type FlipPair,
} from "./regrade-flips";

// The reads of a regrade (a run whose `runs.regrade_of` names its source):
// each result beside the source's result of the same id, joined in SQL (the
// source's verdicts are read where they are stored, never copied), for
// `report RUN_ID`'s `previous`, the flips page (regrade-flips.ts) and the run
// page's Re-grade with… form.

export interface RegradeOptions {
  /** The suite's versions, v1 the oldest, newest first. */
  versions: { id: string; number: number; createdAt: Date }[];
  /** The version this run graded. */
  runVersionId: string;
  /** Judge models this run's results were graded by. */
  judgeModels: string[];
  /** The models that made this run's candidates (matrix.agents): a judge may be one of them too. */
  agentModels: string[];
}

export function createRegradeViews(prisma: PrismaClient) {
  const flips = createRegradeFlips(prisma);
  /** The source run of a regrade, if `runId` is one (and its source is still stored). */
  const sourceOf = async (
    runId: string,
  ): Promise<{ id: string; createdAt: Date; versionNumber: number } | undefined> => {
    if (!UUID.test(runId)) return undefined;
    const run = await prisma.run.findUnique({ where: { id: runId }, select: { regradeOf: true } });
    if (!run?.regradeOf) return undefined;
    const source = await prisma.run.findUnique({
      where: { id: run.regradeOf },
      select: { id: true, createdAt: true, suiteId: true, suiteVersionId: true },
    });
    if (!source) return undefined;
    const numbers = await versionNumbers(prisma, [source]);
    return {
      id: source.id,
      createdAt: source.createdAt,
      versionNumber: numbers.get(source.suiteVersionId) ?? 0,
    };
  };

  return {
    ...flips,
    sourceOf,

    /** `report RUN_ID` of a regrade: each result's score, status and criteria's verdicts in the source run. */
    async previousOf(
      runId: string,
    ): Promise<
      { sourceRunId: string; previous: (BaselineVerdict & { id: string })[] } | undefined
    > {
      const source = await sourceOf(runId);
      if (!source) return undefined;
      const previous = await prisma.$queryRaw<(BaselineVerdict & { id: string })[]>`
        SELECT s.result_key AS id, s.score, s.status,
          ${criteriaVerdicts(Prisma.sql`s.data`)} AS criteria
        FROM eval_results n
        JOIN eval_results s ON s.run_id = ${source.id}::uuid AND s.result_key = n.result_key
        WHERE n.run_id = ${runId}::uuid`;
      return { sourceRunId: source.id, previous };
    },

    /** What Re-grade with… left out when it queued this run (`config.regradeNotes`). */
    async regradeNotes(runId: string): Promise<string[]> {
      if (!UUID.test(runId)) return [];
      const run = await prisma.run.findUnique({ where: { id: runId }, select: { config: true } });
      const notes = (run?.config as { regradeNotes?: unknown } | null)?.regradeNotes;
      return Array.isArray(notes) ? notes.filter((n): n is string => typeof n === "string") : [];
    },

    /** What Re-grade with… offers for a run: its suite's versions and the judge models it used. */
    async regradeOptions(runId: string): Promise<RegradeOptions | undefined> {
      if (!UUID.test(runId)) return undefined;
      const run = await prisma.run.findUnique({
        where: { id: runId },
        select: { suiteId: true, suiteVersionId: true, kind: true },
      });
      if (!run || run.kind !== "eval") return undefined;
      const [versions, models, agents] = await Promise.all([
        prisma.suiteVersion.findMany({
          where: { suiteId: run.suiteId },
          orderBy: [{ createdAt: "desc" }, { id: "desc" }],
          select: { id: true, createdAt: true, suiteId: true },
          take: 500,
        }),
        prisma.$queryRaw<{ v: string }[]>`
          SELECT DISTINCT judge_model AS v FROM eval_results
          WHERE run_id = ${runId}::uuid AND judge_model IS NOT NULL ORDER BY 1 LIMIT ${MAX_FILTER_OPTIONS}`,
        prisma.$queryRaw<{ v: string }[]>`
          SELECT DISTINCT cell_agent AS v FROM eval_results
          WHERE run_id = ${runId}::uuid AND cell_agent IS NOT NULL ORDER BY 1 LIMIT ${MAX_FILTER_OPTIONS}`,
      ]);
      const numbers = await versionNumbers(
        prisma,
        versions.map((v) => ({ suiteId: v.suiteId, suiteVersionId: v.id })),
      );
      return {
        versions: versions.map((v) => ({
          id: v.id,
          number: numbers.get(v.id) ?? 0,
          createdAt: v.createdAt,
        })),
        runVersionId: run.suiteVersionId,
        judgeModels: models.map((m) => m.v),
        agentModels: agents.map((m) => m.v),
      };
    },
  };
}

export type RegradeViews = ReturnType<typeof createRegradeViews>;
