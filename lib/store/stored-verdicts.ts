import type { BaselineVerdict } from "../engine/trust/compare-baseline";
import { gradedOnResume, type SkipKind } from "../engine/results/skip-kind";
import type { PrismaClient } from "./connection";
import { Prisma } from "./generated/client";
import { criteriaVerdicts } from "./regrade-flips";

// What `resume`, `--baseline` and `regrade` read of a stored run, without reading it whole
// (issue 20): the keys of the results a resumed run keeps, in keyset pages by (suite_order, id)
// (the index eval_results(run_id, suite_order, id)), each key a few dozen bytes; and the score and
// status of a window of results, looked up by key in one query (the unique index on
// (run_id, result_key)). A result's JSON is never read here.

const KEY_PAGE = 5_000;

export interface ResumeKeys {
  /** The results kept as they are: the cells the resumed run does not grade again. */
  kept: Set<string>;
  /** Results stored as interrupted or cancelled, graded again (gradedOnResume). */
  again: number;
}

export async function resumeKeysOf(prisma: PrismaClient, runId: string): Promise<ResumeKeys> {
  const kept = new Set<string>();
  let again = 0;
  let after: { order: string; id: string } | undefined;
  for (;;) {
    const rows: {
      id: string;
      key: string;
      resultKey: string;
      status: string;
      skipKind: string | null;
    }[] = after
      ? await prisma.$queryRaw`
            SELECT id::text AS id, suite_order AS key, result_key AS "resultKey", status,
                   data->>'skipKind' AS "skipKind"
            FROM eval_results
            WHERE run_id = ${runId}::uuid AND (suite_order, id) > (${after.order}, ${after.id}::uuid)
            ORDER BY suite_order, id LIMIT ${KEY_PAGE}`
      : await prisma.$queryRaw`
            SELECT id::text AS id, suite_order AS key, result_key AS "resultKey", status,
                   data->>'skipKind' AS "skipKind"
            FROM eval_results WHERE run_id = ${runId}::uuid
            ORDER BY suite_order, id LIMIT ${KEY_PAGE}`;
    for (const row of rows) {
      const skipKind = (row.skipKind ?? undefined) as SkipKind | undefined;
      if (gradedOnResume({ status: row.status, ...(skipKind ? { skipKind } : {}) })) again++;
      else kept.add(row.resultKey);
    }
    if (rows.length < KEY_PAGE) return { kept, again };
    const last = rows.at(-1)!;
    after = { order: last.key, id: last.id };
  }
}

/**
 * The score and status of each of `keys` that `runId` stored, by key (a key it lacks is absent);
 * with `criteria` (a regrade's source), each criterion's name and pass/fail too, read from the
 * result's JSON as the flips page reads them (regrade-views.ts).
 */
export async function verdictsOf(
  prisma: PrismaClient,
  input: { runId: string; keys: readonly string[]; criteria?: boolean },
): Promise<Map<string, BaselineVerdict>> {
  if (input.keys.length === 0) return new Map();
  type Row = Pick<BaselineVerdict, "score" | "status" | "criteria"> & { resultKey: string };
  const rows: Row[] = input.criteria
    ? await prisma.$queryRaw`
        SELECT result_key AS "resultKey", score, status,
          ${criteriaVerdicts(Prisma.sql`data`)} AS criteria
        FROM eval_results
        WHERE run_id = ${input.runId}::uuid AND result_key = ANY(${[...input.keys]}::text[])`
    : await prisma.$queryRaw`
        SELECT result_key AS "resultKey", score, status FROM eval_results
        WHERE run_id = ${input.runId}::uuid AND result_key = ANY(${[...input.keys]}::text[])`;
  return new Map(rows.map(({ resultKey, ...verdict }) => [resultKey, verdict as BaselineVerdict]));
}
