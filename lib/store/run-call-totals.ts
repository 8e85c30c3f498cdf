import type { ModelCallTotals } from "../engine/cost/savings";
import type { PrismaClient } from "./generated/client";

// A run's judge calls summed per model, provider and batching, from its call
// links: what the run page prices what the caches and batching saved from
// (lib/store/run-progress.ts, with the engine's savingsOf), so its figures are
// the json report's.

/**
 * One model's stored calls from one provider, batched or not (a model's batched calls are summed
 * apart: they are billed at batch prices).
 */
export interface StoredModelCalls extends ModelCallTotals {
  /** The provider that served them; null for calls stored before it was recorded. */
  provider: string | null;
  /**
   * How many of them (made or reused) had a known cost: none means the judge could not price them
   * (a declared provider).
   */
  pricedCalls: number;
  /** What the calls made (not reused) cost, the priced ones: the judges' part of the run's cost. */
  madeUsd?: number;
}

interface ModelCallsRow {
  model: string;
  provider: string | null;
  batched: boolean;
  priced: number;
  calls: number;
  reused: number;
  reusedUsd: number;
  madeUsd: number;
  reusedUnpriced: number;
  unpriced: number;
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  cacheWrite1h: number;
}

/** A run's calls so far per model, from its call links (its own columns are totals written when it finishes). */
export async function callsByModel(prisma: PrismaClient, runId: string): Promise<ModelCallsRow[]> {
  return prisma.$queryRaw<ModelCallsRow[]>`
    SELECT jc.model, jc.provider,
           (jc.batch_id IS NOT NULL AND NOT rc.reused) AS batched,
           count(*)::int AS calls,
           (count(*) FILTER (WHERE jc.cost_usd IS NOT NULL))::int AS priced,
           (count(*) FILTER (WHERE rc.reused))::int AS reused,
           coalesce(sum(jc.cost_usd) FILTER (WHERE rc.reused), 0)::float8 AS "reusedUsd",
           coalesce(sum(jc.cost_usd) FILTER (WHERE NOT rc.reused), 0)::float8 AS "madeUsd",
           (count(*) FILTER (WHERE rc.reused AND jc.cost_usd IS NULL))::int AS "reusedUnpriced",
           (count(*) FILTER (WHERE NOT rc.reused AND jc.status = 'done' AND jc.cost_usd IS NULL))::int AS unpriced,
           coalesce(sum(jc.input_tokens) FILTER (WHERE NOT rc.reused), 0)::int AS input,
           coalesce(sum(jc.output_tokens) FILTER (WHERE NOT rc.reused), 0)::int AS output,
           coalesce(sum(jc.cache_read_tokens) FILTER (WHERE NOT rc.reused), 0)::int AS "cacheRead",
           coalesce(sum(jc.cache_write_tokens) FILTER (WHERE NOT rc.reused), 0)::int AS "cacheWrite",
           coalesce(sum(jc.cache_write_1h_tokens) FILTER (WHERE NOT rc.reused), 0)::int AS "cacheWrite1h"
    FROM run_calls rc JOIN judge_calls jc ON jc.key = rc.call_key
    WHERE rc.run_id = ${runId}::uuid
    GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`;
}

/** Judge calls made (not reused) whose model had no price, per run: a runs list says "unpriced" for them, never a made-up $0. */
export async function unpricedCallsByRun(
  prisma: PrismaClient,
  runIds: readonly string[],
): Promise<Map<string, number>> {
  if (runIds.length === 0) return new Map();
  const rows = await prisma.$queryRaw<{ runId: string; unpriced: number }[]>`
    SELECT rc.run_id::text AS "runId", count(*)::int AS unpriced
    FROM run_calls rc JOIN judge_calls jc ON jc.key = rc.call_key
    WHERE rc.run_id = ANY(${[...runIds]}::uuid[])
      AND NOT rc.reused AND jc.status = 'done' AND jc.cost_usd IS NULL
    GROUP BY 1`;
  return new Map(rows.map((r) => [r.runId, r.unpriced]));
}
