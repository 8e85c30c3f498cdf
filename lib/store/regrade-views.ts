import type { EvalResult, EvalStatus } from "../engine/results/report";
import { readStoredResult } from "../engine/results/stored-result";
import { flippedCriteria, type FlipKind } from "../engine/trust/regrade/flip-kind";
import { Prisma, type PrismaClient } from "./generated/client";
import { versionNumbers } from "./version-numbers";

// The reads of a regrade (a run whose `runs.regrade_of` names its source):
// each result beside the source's result of the same id, joined in SQL (the
// source's verdicts are read where they are stored, never copied), for
// `report RUN_ID`'s `previous`, the flips page and the run page's Re-grade
// with… form.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Flips first, then the other changes, the largest score move first. */
export const FLIPS_PAGE_SIZE = 20;
/** The flips page's filter menus list at most this many evals and candidate models. */
const MAX_FILTER_OPTIONS = 200;

/** What the flips page filters by: an eval's name, a matrix cell's candidate model. */
export interface FlipFilter {
  eval?: string;
  agent?: string;
}

/** A hand count of a regrade against its source (of the results both hold). */
export interface FlipCounts {
  /** Passed before, not now. */
  nowFail: number;
  /** Not passed before, passed now. */
  nowPass: number;
  /** The result's verdict held, but a criterion's pass/fail flipped. */
  criteria: number;
  /** Nothing flipped: the score or the status moved (failed → judge error, 0.40 → 0.55). */
  moved: number;
  unchanged: number;
}

/** One result of the regrade beside its source's: both verdicts whole (the candidate is the same). */
export interface FlipPair {
  kind: FlipKind;
  previous: EvalResult;
  current: EvalResult;
  /** The criteria whose pass/fail flipped (`flippedCriteria`), whatever the kind. */
  flippedCriteria: string[];
}

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

// `flipKindOf` (lib/engine/trust/regrade/flip-kind.ts) in SQL, over n (the regrade's result) and
// s (its source's); test/store/flip-kinds.test.ts holds the two to the same answers.
// A flip of the result: a change between passing and not passing.
const FLIP = Prisma.sql`((n.status = 'passed') <> (s.status = 'passed'))`;
// A criterion graded pass or fail in both (matched by name) whose verdict differs.
const CRITERION_FLIP = Prisma.sql`EXISTS (
  SELECT 1 FROM jsonb_array_elements(coalesce(n.data -> 'criteria', '[]'::jsonb)) nc
  JOIN jsonb_array_elements(coalesce(s.data -> 'criteria', '[]'::jsonb)) sc ON sc ->> 'name' = nc ->> 'name'
  WHERE jsonb_typeof(nc -> 'passed') = 'boolean' AND jsonb_typeof(sc -> 'passed') = 'boolean'
    AND nc -> 'passed' <> sc -> 'passed')`;
const MOVED = Prisma.sql`(n.score IS DISTINCT FROM s.score OR n.status <> s.status)`;
const KIND = Prisma.sql`CASE WHEN ${FLIP} AND s.status = 'passed' THEN 'now_fail'
  WHEN ${FLIP} THEN 'now_pass'
  WHEN ${CRITERION_FLIP} THEN 'criteria'
  WHEN ${MOVED} THEN 'moved'
  ELSE 'unchanged' END`;

function filterSql(filter: FlipFilter) {
  return Prisma.sql`${filter.eval !== undefined ? Prisma.sql`AND n.eval_name = ${filter.eval}` : Prisma.empty}
    ${filter.agent !== undefined ? Prisma.sql`AND n.cell_agent = ${filter.agent}` : Prisma.empty}`;
}

export function createRegradeViews(prisma: PrismaClient) {
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
    sourceOf,

    /** `report RUN_ID` of a regrade: each result's score and status in the source run. */
    async previousOf(runId: string): Promise<
      | {
          sourceRunId: string;
          previous: { id: string; score: number | null; status: EvalStatus }[];
        }
      | undefined
    > {
      const source = await sourceOf(runId);
      if (!source) return undefined;
      const previous = await prisma.$queryRaw<
        { id: string; score: number | null; status: EvalStatus }[]
      >`
        SELECT s.result_key AS id, s.score, s.status
        FROM eval_results n
        JOIN eval_results s ON s.run_id = ${source.id}::uuid AND s.result_key = n.result_key
        WHERE n.run_id = ${runId}::uuid`;
      return { sourceRunId: source.id, previous };
    },

    async flipCounts(input: { runId: string; filter?: FlipFilter }): Promise<FlipCounts> {
      const rows = await prisma.$queryRaw<{ kind: FlipKind; count: number }[]>`
        SELECT kind, count(*)::int AS count FROM (
          SELECT ${KIND} AS kind
          FROM runs r
          JOIN eval_results n ON n.run_id = r.id
          JOIN eval_results s ON s.run_id = r.regrade_of AND s.result_key = n.result_key
          WHERE r.id = ${input.runId}::uuid ${filterSql(input.filter ?? {})}
        ) k GROUP BY kind`;
      const of = (kind: FlipKind) => rows.find((r) => r.kind === kind)?.count ?? 0;
      return {
        nowFail: of("now_fail"),
        nowPass: of("now_pass"),
        criteria: of("criteria"),
        moved: of("moved"),
        unchanged: of("unchanged"),
      };
    },

    /** One page of the changes (unchanged results are only counted): flips first, then criteria flips, then score moves. */
    async flipPage(input: {
      runId: string;
      filter?: FlipFilter;
      offset: number;
      limit?: number;
    }): Promise<FlipPair[]> {
      const limit = Math.max(1, Math.min(FLIPS_PAGE_SIZE, input.limit ?? FLIPS_PAGE_SIZE));
      const offset = Math.max(0, Math.min(1_000_000, Math.floor(input.offset)));
      const rows = await prisma.$queryRaw<
        { kind: FlipKind; current: EvalResult; previous: EvalResult }[]
      >`
        SELECT kind, current, previous FROM (
          SELECT ${KIND} AS kind, n.data AS current, s.data AS previous,
            ${FLIP} AS flip, abs(coalesce(n.score, 0) - coalesce(s.score, 0)) AS move,
            n.name, n.result_key
          FROM runs r
          JOIN eval_results n ON n.run_id = r.id
          JOIN eval_results s ON s.run_id = r.regrade_of AND s.result_key = n.result_key
          WHERE r.id = ${input.runId}::uuid ${filterSql(input.filter ?? {})}
        ) k
        WHERE kind <> 'unchanged'
        ORDER BY flip DESC, kind = 'criteria' DESC, move DESC, name, result_key
        LIMIT ${limit} OFFSET ${offset}`;
      return rows.map((r) => {
        const current = readStoredResult(r.current);
        const previous = readStoredResult(r.previous);
        return {
          kind: r.kind,
          current,
          previous,
          flippedCriteria: flippedCriteria({ now: current, before: previous }),
        };
      });
    },

    /** The evals and candidate models a regrade's results span: the flips page's filters. */
    async flipFilters(runId: string): Promise<{ evals: string[]; agents: string[] }> {
      if (!UUID.test(runId)) return { evals: [], agents: [] };
      const [evals, agents] = await Promise.all([
        prisma.$queryRaw<{ v: string }[]>`
          SELECT DISTINCT eval_name AS v FROM eval_results WHERE run_id = ${runId}::uuid
          ORDER BY 1 LIMIT ${MAX_FILTER_OPTIONS}`,
        prisma.$queryRaw<{ v: string }[]>`
          SELECT DISTINCT cell_agent AS v FROM eval_results
          WHERE run_id = ${runId}::uuid AND cell_agent IS NOT NULL ORDER BY 1 LIMIT ${MAX_FILTER_OPTIONS}`,
      ]);
      return { evals: evals.map((r) => r.v), agents: agents.map((r) => r.v) };
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
