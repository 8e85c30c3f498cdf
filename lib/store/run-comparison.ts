import { deltaOf } from "../engine/trust/compare-baseline";
import type { EvalStatus, RunsCompared } from "../engine/results/report";
import { Prisma, type PrismaClient } from "./generated/client";
import { UUID } from "./uuid";

// Two stored runs compared for the History page by the engine's baseline rule (deltaOf, the one
// `eval --baseline` gates on) without reading either run whole (issue 20: two runs of a million
// results took the server out of memory). Each result of the later run is joined on its result
// key to the earlier run's (the unique (run_id, result_key) index); the counts are one aggregate
// over the join, and only the first rows in the page's order are read, each judged by deltaOf.
// test/store/run-comparison.test.ts holds the SQL to the engine's counts on the same pair.

/** Rows of the comparison the page shows at most: the worst first. */
export const COMPARED_ROWS_SHOWN = 200;

const FAILING = Prisma.sql`('failed', 'judge_error')`;
const NOT_GRADED = Prisma.sql`('skipped', 'deferred')`;

/** deltaOf's rules in SQL over `h` (the later run's row) and `b` (the earlier run's, or nulls). */
function rules(maxDrop: number) {
  const newlyFailing = Prisma.sql`(b.status = 'passed' AND h.status IN ${FAILING})`;
  const newlyPassing = Prisma.sql`(b.status IN ${FAILING} AND h.status = 'passed')`;
  // deltaOf's hair of tolerance, added in JavaScript so that both sides compare the same double.
  const regressed = Prisma.sql`(${newlyFailing} OR -(h.score - b.score) > ${maxDrop + 1e-9}::float8)`;
  const nowGraded = Prisma.sql`(b.status IN ${NOT_GRADED} AND h.status NOT IN ${NOT_GRADED})`;
  const noLongerGraded = Prisma.sql`(b.status NOT IN ${NOT_GRADED} AND h.status IN ${NOT_GRADED})`;
  // The page's order (components/results/run-comparison.tsx): newly failing, newly passing,
  // regressed, graded in one run only, the rest; then the largest change, then the suite's order.
  const rank = Prisma.sql`CASE WHEN ${newlyFailing} THEN 0 WHEN ${newlyPassing} THEN 1
    WHEN ${regressed} THEN 2 WHEN ${nowGraded} OR ${noLongerGraded} THEN 3 ELSE 4 END`;
  return { newlyFailing, newlyPassing, regressed, nowGraded, noLongerGraded, rank };
}

interface CountsRow {
  compared: number;
  unmatched: number;
  newly_failing: number;
  newly_passing: number;
  regressions: number;
  now_graded: number;
  no_longer_graded: number;
}

interface PairRow {
  result_key: string;
  name: string;
  status: EvalStatus;
  score: number | null;
  base_status: EvalStatus | null;
  base_score: number | null;
}

/**
 * `head` against `base`: every count over the whole of both runs, and the first `rows` deltas in
 * the page's order. Undefined for a malformed id.
 */
export async function compareStoredRuns(
  prisma: PrismaClient,
  input: { baseRunId: string; headRunId: string; maxDrop: number; rows?: number },
): Promise<RunsCompared | undefined> {
  if (!UUID.test(input.baseRunId) || !UUID.test(input.headRunId)) return undefined;
  const rule = rules(input.maxDrop);
  const limit = Math.max(0, Math.floor(input.rows ?? COMPARED_ROWS_SHOWN));
  const pair = Prisma.sql`eval_results h
    LEFT JOIN eval_results b ON b.run_id = ${input.baseRunId}::uuid AND b.result_key = h.result_key
    WHERE h.run_id = ${input.headRunId}::uuid`;
  // The two statements at once: each scans the whole join (6.9 s for two million-result runs).
  const [[counts], rows] = await Promise.all([
    prisma.$queryRaw<CountsRow[]>`
    SELECT count(*)::int AS compared,
           count(*) FILTER (WHERE b.id IS NULL)::int AS unmatched,
           count(*) FILTER (WHERE ${rule.newlyFailing})::int AS newly_failing,
           count(*) FILTER (WHERE ${rule.newlyPassing})::int AS newly_passing,
           count(*) FILTER (WHERE ${rule.regressed})::int AS regressions,
           count(*) FILTER (WHERE ${rule.nowGraded})::int AS now_graded,
           count(*) FILTER (WHERE ${rule.noLongerGraded})::int AS no_longer_graded
    FROM ${pair}`,
    limit === 0
      ? Promise.resolve([] as PairRow[])
      : prisma.$queryRaw<PairRow[]>`
    SELECT h.result_key, h.name, h.status, h.score, b.status AS base_status, b.score AS base_score
    FROM ${pair}
    ORDER BY ${rule.rank}, abs(coalesce(h.score - b.score, 0)) DESC, h.suite_order, h.result_key
    LIMIT ${limit}`,
  ]);
  return {
    runId: input.baseRunId,
    maxDrop: input.maxDrop,
    deltas: rows.map((r) =>
      deltaOf({
        result: { id: r.result_key, name: r.name, score: r.score, status: r.status },
        before: r.base_status === null ? undefined : { status: r.base_status, score: r.base_score },
        maxDrop: input.maxDrop,
      }),
    ),
    compared: counts!.compared,
    regressions: counts!.regressions,
    newlyFailing: counts!.newly_failing,
    newlyPassing: counts!.newly_passing,
    unmatched: counts!.unmatched,
    nowGraded: counts!.now_graded,
    noLongerGraded: counts!.no_longer_graded,
  };
}
