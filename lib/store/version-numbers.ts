import { Prisma, type PrismaClient } from "./generated/client";

/** Version numbers of a run's suite versions: v1 the oldest of its suite, as the versions panel counts. */
export async function versionNumbers(
  prisma: PrismaClient,
  runs: { suiteId: string; suiteVersionId: string }[],
): Promise<Map<string, number>> {
  const suiteIds = [...new Set(runs.map((r) => r.suiteId))];
  if (suiteIds.length === 0) return new Map();
  const rows = await prisma.$queryRaw<{ id: string; n: number }[]>`
    SELECT id::text AS id, (row_number() OVER (PARTITION BY suite_id ORDER BY created_at, id))::int AS n
    FROM suite_versions WHERE suite_id IN (${Prisma.join(suiteIds.map((id) => Prisma.sql`${id}::uuid`))})`;
  return new Map(rows.map((r) => [r.id, r.n]));
}
