import { randomUUID } from "node:crypto";
import pg from "pg";
import { parseDatabaseUrl } from "../lib/store/connection";
import { contentHash } from "../lib/store/run-store";
import { insertBatch, type Batch } from "./bulk-load-history";
import { createRandom, JUDGE_MODELS, suiteYaml, syntheticResult } from "./synthetic-results";

// One finished run of `results` results (evals × the four judge models of the
// synthetic suite) in a migrated database, 2,000 rows per INSERT: what
// `npm run bench:ui` and the results table's browser test page through.
// Works on the embedded PGlite server (which has no COPY FROM STDIN over its
// socket) as on Postgres.

export interface SeededRun {
  suiteId: string;
  suiteName: string;
  runId: string;
  results: number;
  /** Names of the run's first and last results in the suite's order (what the table shows first and last). */
  firstName: string;
  lastName: string;
  /** The results per status, counted as they were made (what the run page must show). */
  counts: Record<string, number>;
  ms: number;
}

const BATCH = 2_000;

export async function seedBigRun(input: {
  url: string;
  results: number;
  criteria?: number;
  suiteName?: string;
}): Promise<SeededRun> {
  const started = performance.now();
  const models = JUDGE_MODELS.length;
  if (input.results % models !== 0) throw new RangeError(`results must be a multiple of ${models}`);
  const evals = input.results / models;
  const criteria = input.criteria ?? 3;
  const suiteName = input.suiteName ?? `big-run-${evals * models}.yaml`;
  const client = new pg.Client(parseDatabaseUrl(input.url));
  await client.connect();
  try {
    const suiteId = randomUUID();
    const versionId = randomUUID();
    const runId = randomUUID();
    const yaml = suiteYaml(evals, criteria);
    await client.query("INSERT INTO suites (id, name, updated_at) VALUES ($1, $2, now())", [
      suiteId,
      suiteName,
    ]);
    await client.query(
      "INSERT INTO suite_versions (id, suite_id, content_hash, yaml, created_at) VALUES ($1, $2, $3, $4, now())",
      [versionId, suiteId, contentHash(yaml), yaml],
    );
    const config = JSON.stringify({
      file: suiteName,
      toolVersion: "0.1.0",
      judgeModel: JUDGE_MODELS[0],
      concurrency: 16,
      timeoutSeconds: 120,
    });
    await client.query(
      `INSERT INTO runs (id, suite_id, suite_version_id, status, started_by, host, config, created_at, started_at, finished_at, total_cells)
       VALUES ($1, $2, $3, 'completed', 'cli', 'bench', $4::jsonb, now() - interval '20 minutes', now() - interval '20 minutes', now(), $5)`,
      [runId, suiteId, versionId, config, evals * models],
    );
    const random = createRandom(20261122);
    const names: string[] = [];
    const counts: Record<string, number> = {};
    const at = Date.now() - 20 * 60_000;
    let batch: Batch = { results: [], runIds: [], createdAt: [] };
    for (let e = 0; e < evals; e++) {
      const drift = (random() - 0.5) * 0.04;
      for (const model of JUDGE_MODELS) {
        const result = syntheticResult({ evalIndex: e, model, criteria, drift, random });
        names.push(result.name);
        counts[result.status] = (counts[result.status] ?? 0) + 1;
        batch.results.push(result);
        batch.runIds.push(runId);
        batch.createdAt.push(new Date(at + names.length * 100));
        if (batch.results.length === BATCH) {
          await insertBatch(client, batch);
          batch = { results: [], runIds: [], createdAt: [] };
        }
      }
    }
    if (batch.results.length) await insertBatch(client, batch);
    await client.query(
      `UPDATE runs r SET passed = t.passed, failed = t.failed, deferred = t.deferred, judge_errors = t.judge_errors, skipped = t.skipped, judge_calls = t.judge_calls, cost_usd = t.cost_usd
       FROM (SELECT run_id, count(*) FILTER (WHERE status = 'passed') AS passed, count(*) FILTER (WHERE status = 'failed') AS failed,
                    count(*) FILTER (WHERE status = 'deferred') AS deferred, count(*) FILTER (WHERE status = 'judge_error') AS judge_errors,
                    count(*) FILTER (WHERE status = 'skipped') AS skipped, sum(judge_calls) AS judge_calls, sum(cost_usd) AS cost_usd
             FROM eval_results WHERE run_id = $1 GROUP BY run_id) t
       WHERE r.id = t.run_id`,
      [runId],
    );
    await client.query("ANALYZE eval_results");
    // The table opens in the suite's order (suite_order, then id), as the database sorts it: ask it.
    const ends = await client.query<{ first: string; last: string }>(
      `SELECT (SELECT name FROM eval_results WHERE run_id = $1 ORDER BY suite_order, id LIMIT 1) AS first,
              (SELECT name FROM eval_results WHERE run_id = $1 ORDER BY suite_order DESC, id DESC LIMIT 1) AS last`,
      [runId],
    );
    return {
      suiteId,
      suiteName,
      runId,
      results: names.length,
      firstName: ends.rows[0]!.first,
      lastName: ends.rows[0]!.last,
      counts,
      ms: performance.now() - started,
    };
  } finally {
    await client.end();
  }
}

/** A copy of `baseRunId` as a later run of its suite, one result in 20 changed: its id. */
export async function seedLaterRun(url: string, baseRunId: string): Promise<string> {
  const client = new pg.Client(parseDatabaseUrl(url));
  await client.connect();
  try {
    const { rows } = await client.query<{ id: string }>(
      `INSERT INTO runs (id, suite_id, suite_version_id, status, started_by, host, config, created_at, started_at, finished_at, total_cells)
       SELECT gen_random_uuid(), suite_id, suite_version_id, status, started_by, host, config, now(), now(), now(), total_cells
       FROM runs WHERE id = $1 RETURNING id`,
      [baseRunId],
    );
    const headRunId = rows[0]!.id;
    const columns = (
      await client.query<{ name: string }>(
        `SELECT column_name AS name FROM information_schema.columns
         WHERE table_name = 'eval_results' AND column_name NOT IN ('id', 'run_id', 'status', 'score', 'data')`,
      )
    ).rows.map((r) => r.name);
    // h: a number 0..99 from the key. 0–1 flip pass/fail, 2 deferred, 3–4 a drop of 0.1, the rest as before.
    await client.query(
      `INSERT INTO eval_results (id, run_id, status, score, data, ${columns.join(", ")})
       SELECT gen_random_uuid(), $2::uuid, s.status, s.score,
              jsonb_set(jsonb_set(r.data, '{status}', to_jsonb(s.status)), '{score}', coalesce(to_jsonb(s.score), 'null'::jsonb)),
              ${columns.map((c) => `r.${c}`).join(", ")}
       FROM eval_results r,
            LATERAL (SELECT abs(hashtext(r.result_key)) % 100 AS h) k,
            LATERAL (SELECT
              CASE WHEN k.h < 2 AND r.status = 'passed' THEN 'failed'
                   WHEN k.h < 2 AND r.status = 'failed' THEN 'passed'
                   WHEN k.h = 2 THEN 'deferred' ELSE r.status END AS status,
              CASE WHEN k.h = 2 THEN NULL
                   WHEN k.h IN (3, 4) AND r.score IS NOT NULL THEN greatest(0, r.score - 0.1)
                   ELSE r.score END AS score) s
       WHERE r.run_id = $1::uuid`,
      [baseRunId, headRunId],
    );
    await client.query("ANALYZE eval_results");
    return headRunId;
  } finally {
    await client.end();
  }
}
