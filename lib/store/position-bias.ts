import { Prisma, type PrismaClient } from "./generated/client";
import { keptFiguresOf } from "./run-figures";
import { UUID } from "./uuid";

// The pairwise judge's position bias across comparisons: a run's (every
// pairwise result of it pooled) and a suite's, run by run. Each result stores
// the engine's PositionBias (lib/engine/pairwise: pairs whose two orders
// disagreed, of the pairs where both orders gave a definite verdict); pooling
// sums those counts, so a comparison of 40 pairs weighs more than one of 2.
// Results are picked by eval_results.rubric_kind, so only the comparisons'
// JSON is read (the run page asks this of every run, 10,000 results or not).

export type RunPositionBias = PooledPositionBias & {
  runId: string;
  createdAt: Date;
  status: string;
};

/** Pairwise results pooled, and the sums of their PositionBias counts. */
type Row = {
  comparisons: number;
  biased: number;
  comparable: number;
  favoredFirst: number;
  favoredSecond: number;
};

const POOLED = Prisma.sql`
  count(*)::int AS comparisons,
  coalesce(sum((e.data->'pairwise'->'positionBias'->>'biased')::int), 0)::int AS biased,
  coalesce(sum((e.data->'pairwise'->'positionBias'->>'comparable')::int), 0)::int AS comparable,
  coalesce(sum((e.data->'pairwise'->'positionBias'->>'favoredFirst')::int), 0)::int AS "favoredFirst",
  coalesce(sum((e.data->'pairwise'->'positionBias'->>'favoredSecond')::int), 0)::int AS "favoredSecond"`;

/**
 * The pooled counts, and their rate (biased / comparable; null when no pair had two definite
 * verdicts). The page's view declares this shape (components/results/position-bias.tsx).
 */
function pooled(row: Row) {
  return { ...row, rate: row.comparable > 0 ? row.biased / row.comparable : null };
}

export type PooledPositionBias = ReturnType<typeof pooled>;

export function createPositionBiasViews(prisma: PrismaClient) {
  return {
    /** A run's pairwise results pooled; undefined when it has none. */
    async runPositionBias(runId: string): Promise<PooledPositionBias | undefined> {
      if (!UUID.test(runId)) return undefined;
      // A finished run kept how many comparisons it has (run-figures.ts): none, nothing to read.
      if ((await keptFiguresOf(prisma, runId))?.pairwise === 0) return undefined;
      const rows = await prisma.$queryRaw<
        Row[]
      >`SELECT ${POOLED} FROM eval_results e WHERE e.run_id = ${runId}::uuid AND e.rubric_kind = 'pairwise'`;
      const row = rows[0];
      return row && row.comparisons > 0 ? pooled(row) : undefined;
    },

    /** The suite's newest `limit` eval runs that compared anything, newest first, each pooled. */
    async suitePositionBias(input: { suiteId: string; limit: number }): Promise<RunPositionBias[]> {
      if (!UUID.test(input.suiteId)) return [];
      const rows = await prisma.$queryRaw<
        (Row & { runId: string; createdAt: Date; status: string })[]
      >`
        SELECT r.id::text AS "runId", r.created_at AS "createdAt", r.status, ${POOLED}
        FROM runs r JOIN eval_results e ON e.run_id = r.id
        WHERE r.suite_id = ${input.suiteId}::uuid AND r.kind = 'eval' AND e.rubric_kind = 'pairwise'
        GROUP BY r.id, r.created_at, r.status
        ORDER BY r.created_at DESC, r.id DESC
        LIMIT ${Math.max(1, Math.min(500, Math.floor(input.limit)))}`;
      return rows.map(({ runId, createdAt, status, ...row }) => ({
        runId,
        createdAt,
        status,
        ...pooled(row),
      }));
    },
  };
}
