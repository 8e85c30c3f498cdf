import type { EvalResult } from "../engine/results/report";
import type { PrismaClient } from "./generated/client";
import { storableDeep } from "./storable";
import { queryDirect } from "./connection";
import { rowOf } from "./result-rows";

// Many graded results written in one statement, one round trip: the results upserted on
// (run, result key), so a rerun of a cell never duplicates it, the criteria of those replaced
// deleted, and every criterion inserted. The rows come as one `json` parameter read by
// json_to_recordset (its fields are result-rows.ts's rowOf, Prisma's field names, so one mapping
// serves both writers); each result's document is parsed into jsonb once, as it is stored, and its
// criterion rows are read from that document's `criteria` (the fields criterionRowsOf writes have
// the engine's names), so Node serialises each result once. Parsing the whole batch as jsonb first,
// and sending the criteria a second time beside the document, cost about a third of the statement's
// time and of Node's (`npm run bench:store -- --big-run 0 --writes N`).
// What `saveResult` does for one result, without Prisma building each row in Node (67 results/s
// through it). What a model wrote is made storable first (storable.ts).

const SAVE_BATCH = `
    WITH input AS (
      SELECT * FROM json_to_recordset($1::json) AS x(
        "resultKey" text, "evalName" text, name text, "cellModel" text, "cellAgent" text, "cellPrompt" int,
        "judgeModel" text, "judgeCount" int, "rubricKind" text, status text, vacuous boolean, score float8,
        threshold float8, reason text, note text, "costUsd" float8, "judgeCalls" int, "latencyMs" int,
        "suiteOrder" text, data jsonb)
    ), saved AS (
      INSERT INTO eval_results (id, run_id, result_key, eval_name, name, cell_model, cell_agent, cell_prompt,
        judge_model, judge_count, rubric_kind, status, vacuous, score, threshold, reason, note, cost_usd,
        judge_calls, latency_ms, suite_order, data)
      SELECT gen_random_uuid(), $2::uuid, "resultKey", "evalName", name, "cellModel", "cellAgent",
        "cellPrompt", "judgeModel", "judgeCount", "rubricKind", status, vacuous, score, threshold, reason, note,
        "costUsd", "judgeCalls", "latencyMs", "suiteOrder", data
      FROM input
      ON CONFLICT (run_id, result_key) DO UPDATE SET eval_name = EXCLUDED.eval_name, name = EXCLUDED.name,
        cell_model = EXCLUDED.cell_model, cell_agent = EXCLUDED.cell_agent, cell_prompt = EXCLUDED.cell_prompt,
        judge_model = EXCLUDED.judge_model, judge_count = EXCLUDED.judge_count, rubric_kind = EXCLUDED.rubric_kind,
        status = EXCLUDED.status, vacuous = EXCLUDED.vacuous, score = EXCLUDED.score, threshold = EXCLUDED.threshold,
        reason = EXCLUDED.reason, note = EXCLUDED.note, cost_usd = EXCLUDED.cost_usd,
        judge_calls = EXCLUDED.judge_calls, latency_ms = EXCLUDED.latency_ms, suite_order = EXCLUDED.suite_order,
        data = EXCLUDED.data
      RETURNING id, result_key, xmax <> 0 AS replaced
    ), cleared AS (
      -- The criteria of a result stored before (this statement's snapshot does not see the new ones),
      -- found through their index: a join with every saved row read the whole table (a sequential
      -- scan per batch, slower with every result the run had written).
      DELETE FROM criterion_results c
      WHERE c.eval_result_id = ANY (ARRAY(SELECT id FROM saved WHERE replaced))
    )
    INSERT INTO criterion_results (id, eval_result_id, run_id, name, status, score, passed, threshold, weight,
      required, guard, gates)
    SELECT gen_random_uuid(), saved.id, $2::uuid, c.name, c.status, c.score, c.passed, c.threshold,
      c.weight, c.required, c.guard, c.gates
    FROM input JOIN saved ON saved.result_key = input."resultKey"
    CROSS JOIN LATERAL jsonb_to_recordset(input.data->'criteria') AS c(name text, status text, score float8,
      passed boolean, threshold float8, weight float8, required boolean, guard boolean, gates text[])`;

/**
 * Writes `results` of the run in one statement: each upserted on its key (the last of a key given
 * twice wins), its criteria replaced. Throws what the database says when it refuses any of them
 * (nothing of the batch is then written: one statement).
 */
export async function saveResultBatch(
  prisma: PrismaClient,
  input: { runId: string; results: readonly EvalResult[] },
): Promise<void> {
  if (input.results.length === 0) return;
  const byKey = new Map(input.results.map((r) => [r.id, r]));
  const rows = JSON.stringify(
    [...byKey.values()].map((graded) => {
      const result = storableDeep(graded);
      return { resultKey: result.id, ...rowOf(result) };
    }),
  );
  // Straight to the pool when there is one: Prisma would write the megabytes of JSON as a JSON
  // string and parse them back before sending them (connection.ts, poolOf).
  await queryDirect(prisma, SAVE_BATCH, [rows, input.runId]);
}
