import { randomUUID } from "node:crypto";
import pg from "pg";
import type { EvalResult } from "../lib/engine/report";
import { contentHash } from "../lib/store/run-store";
import { createRandom, JUDGE_MODELS, SUITE_FILE, suiteYaml, syntheticResult } from "./synthetic-results";

// Loads the benchmark's run history straight into Postgres: one suite, 500
// runs, 100,000 eval results and exactly 1,000,000 criterion results. 499
// runs grade 45 evals × 4 judge models × 10 criteria; the newest run grades a
// grown suite version of 2,500 evals × 4 models (10,000 results, its first
// 450 evals with an 11th criterion). Rows go in as multi-row INSERTs over
// unnest(array parameters), one statement per table and batch, on two
// connections, with the secondary indexes dropped during the load and built
// afterwards (what a bulk load does; the FK checks stay on).

export const SUITE_NAME = "support-assistant";
export const RUNS = 500;
export const BIG_RUN_INDEX = RUNS - 1;
const ORDINARY_EVALS = 45;
const BIG_EVALS = 2_500;
const BIG_EXTRA_CRITERION_EVALS = 450;
const CRITERIA = 10;
const RUNS_PER_BATCH = 10;
const BIG_RUN_BATCH = 500; // evals (× 4 models = 2,000 results)
const LOADED_TABLES = ["eval_results", "criterion_results"];

export interface LoadedHistory {
  suiteId: string;
  runIds: string[];
  bigRunId: string;
  evalResults: number;
  criterionResults: number;
  loadMs: number;
  indexMs: number;
}

interface Batch {
  results: EvalResult[];
  runIds: string[];
  createdAt: Date[];
}

function* batches(runIds: string[], runCreatedAt: Date[]): Generator<Batch> {
  const random = createRandom(20261121);
  const cells = function* (run: number, fromEval: number, toEval: number, criteriaOf: (e: number) => number) {
    for (let e = fromEval; e < toEval; e++) {
      // Scores drift slowly over the runs, plus a per-run wobble: a trend worth drawing.
      const drift = 0.08 * Math.sin(run / 40 + e) + (random() - 0.5) * 0.04;
      for (const model of JUDGE_MODELS) yield syntheticResult({ evalIndex: e, model, criteria: criteriaOf(e), drift, random });
    }
  };
  const at = (run: number, i: number) => new Date(runCreatedAt[run]!.getTime() + 2_000 + i * 150);
  let batch: Batch = { results: [], runIds: [], createdAt: [] };
  for (let run = 0; run < BIG_RUN_INDEX; run++) {
    let i = 0;
    for (const result of cells(run, 0, ORDINARY_EVALS, () => CRITERIA)) {
      batch.results.push(result);
      batch.runIds.push(runIds[run]!);
      batch.createdAt.push(at(run, i++));
    }
    if ((run + 1) % RUNS_PER_BATCH === 0 || run === BIG_RUN_INDEX - 1) {
      yield batch;
      batch = { results: [], runIds: [], createdAt: [] };
    }
  }
  let i = 0;
  for (let from = 0; from < BIG_EVALS; from += BIG_RUN_BATCH) {
    batch = { results: [], runIds: [], createdAt: [] };
    for (const result of cells(BIG_RUN_INDEX, from, Math.min(BIG_EVALS, from + BIG_RUN_BATCH), (e) => CRITERIA + (e < BIG_EXTRA_CRITERION_EVALS ? 1 : 0))) {
      batch.results.push(result);
      batch.runIds.push(runIds[BIG_RUN_INDEX]!);
      batch.createdAt.push(at(BIG_RUN_INDEX, i++));
    }
    yield batch;
  }
}

/** Inserts one batch: its eval results, then their criteria (the FK needs the parents first). */
async function insertBatch(client: pg.Client, batch: Batch): Promise<{ evalResults: number; criteria: number }> {
  const e = { id: [] as string[], run: [] as string[], key: [] as string[], evalName: [] as string[], name: [] as string[], cellModel: [] as (string | null)[], cellPrompt: [] as (number | null)[], judgeModel: [] as (string | null)[], status: [] as string[], vacuous: [] as boolean[], score: [] as (number | null)[], threshold: [] as number[], reason: [] as string[], note: [] as (string | null)[], cost: [] as number[], calls: [] as number[], latency: [] as number[], data: [] as string[], createdAt: [] as string[] };
  const c = { id: [] as string[], evalResult: [] as string[], run: [] as string[], name: [] as string[], status: [] as string[], score: [] as (number | null)[], passed: [] as (boolean | null)[], threshold: [] as number[], weight: [] as number[], required: [] as boolean[], guard: [] as boolean[], gates: [] as string[], reasoning: [] as string[], evidence: [] as (string | null)[] };
  batch.results.forEach((r, index) => {
    const id = randomUUID();
    const runId = batch.runIds[index]!;
    // The same mapping as createRunStore().saveResult.
    e.id.push(id);
    e.run.push(runId);
    e.key.push(r.id);
    e.evalName.push(r.eval);
    e.name.push(r.name);
    e.cellModel.push(r.cell?.model ?? null);
    e.cellPrompt.push(r.cell?.promptIndex ?? null);
    e.judgeModel.push(r.judge.models[0] ?? null);
    e.status.push(r.status);
    e.vacuous.push(r.vacuous);
    e.score.push(r.score);
    e.threshold.push(r.threshold);
    e.reason.push(r.reason);
    e.note.push(r.note ?? null);
    e.cost.push(r.costUsd);
    e.calls.push(r.judgeCalls);
    e.latency.push(Math.round(r.latencyMs));
    e.data.push(JSON.stringify(r));
    e.createdAt.push(batch.createdAt[index]!.toISOString());
    for (const k of r.criteria) {
      c.id.push(randomUUID());
      c.evalResult.push(id);
      c.run.push(runId);
      c.name.push(k.name);
      c.status.push(k.status);
      c.score.push(k.score);
      c.passed.push(k.passed);
      c.threshold.push(k.threshold);
      c.weight.push(k.weight);
      c.required.push(k.required);
      c.guard.push(k.guard);
      c.gates.push(`{${k.gates.join(",")}}`);
      c.reasoning.push(k.reasoning);
      c.evidence.push(k.evidence ?? null);
    }
  });
  await client.query(
    `INSERT INTO eval_results (id, run_id, result_key, eval_name, name, cell_model, cell_prompt, judge_model, status, vacuous, score, threshold, reason, note, cost_usd, judge_calls, latency_ms, data, created_at)
     SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::text[], $5::text[], $6::text[], $7::int[], $8::text[], $9::text[], $10::bool[], $11::float8[], $12::float8[], $13::text[], $14::text[], $15::float8[], $16::int[], $17::int[], $18::jsonb[], $19::timestamptz[])`,
    [e.id, e.run, e.key, e.evalName, e.name, e.cellModel, e.cellPrompt, e.judgeModel, e.status, e.vacuous, e.score, e.threshold, e.reason, e.note, e.cost, e.calls, e.latency, e.data, e.createdAt],
  );
  await client.query(
    `INSERT INTO criterion_results (id, eval_result_id, run_id, name, status, score, passed, threshold, weight, required, guard, gates, reasoning, evidence)
     SELECT id, eval_result_id, run_id, name, status, score, passed, threshold, weight, required, guard, gates::text[], reasoning, evidence
     FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::text[], $5::text[], $6::float8[], $7::bool[], $8::float8[], $9::float8[], $10::bool[], $11::bool[], $12::text[], $13::text[], $14::text[])
       AS t(id, eval_result_id, run_id, name, status, score, passed, threshold, weight, required, guard, gates, reasoning, evidence)`,
    [c.id, c.evalResult, c.run, c.name, c.status, c.score, c.passed, c.threshold, c.weight, c.required, c.guard, c.gates, c.reasoning, c.evidence],
  );
  return { evalResults: e.id.length, criteria: c.id.length };
}

export async function bulkLoadHistory(input: { connection: pg.ClientConfig; onProgress?: (criteria: number) => void }): Promise<LoadedHistory> {
  const clients = [new pg.Client(input.connection), new pg.Client(input.connection)];
  await Promise.all(clients.map((client) => client.connect()));
  const [main] = clients as [pg.Client, pg.Client];
  try {
    const started = performance.now();
    const suiteId = randomUUID();
    const versionIds = [randomUUID(), randomUUID()];
    await main.query("INSERT INTO suites (id, name, updated_at) VALUES ($1, $2, now())", [suiteId, SUITE_NAME]);
    const yamls = [suiteYaml(ORDINARY_EVALS, CRITERIA), suiteYaml(BIG_EVALS, CRITERIA + 1)];
    for (const [i, yaml] of yamls.entries()) {
      await main.query("INSERT INTO suite_versions (id, suite_id, content_hash, yaml, created_at) VALUES ($1, $2, $3, $4, now() - interval '300 days')", [versionIds[i], suiteId, contentHash(yaml), yaml]);
    }
    // One run every 12 hours, the newest an hour ago.
    const now = Date.now();
    const runIds = Array.from({ length: RUNS }, () => randomUUID());
    const runCreatedAt = runIds.map((_, i) => new Date(now - 3_600_000 - (RUNS - 1 - i) * 12 * 3_600_000));
    const config = JSON.stringify({ file: SUITE_FILE, toolVersion: "0.1.0", judgeModel: JUDGE_MODELS[0], concurrency: 16, timeoutSeconds: 120 });
    await main.query(
      `INSERT INTO runs (id, suite_id, suite_version_id, status, started_by, host, config, created_at, started_at, finished_at, total_cells)
       SELECT id, $2, CASE WHEN ord = $5 THEN $4::uuid ELSE $3::uuid END, 'completed', CASE WHEN ord % 3 = 0 THEN 'dashboard' ELSE 'cli' END, 'ci-runner-' || (ord % 4),
              $6::jsonb, created_at, created_at, created_at + interval '20 minutes', CASE WHEN ord = $5 THEN ${BIG_EVALS * JUDGE_MODELS.length} ELSE ${ORDINARY_EVALS * JUDGE_MODELS.length} END
       FROM unnest($1::uuid[], $7::timestamptz[]) WITH ORDINALITY AS t(id, created_at, ord)`,
      [runIds, suiteId, versionIds[0], versionIds[1], RUNS, config, runCreatedAt.map((d) => d.toISOString())],
    );

    const indexes = await main.query<{ indexname: string; indexdef: string }>(
      `SELECT indexname, indexdef FROM pg_indexes
       WHERE schemaname = current_schema() AND tablename = ANY($1)
         AND indexname NOT IN (SELECT conname FROM pg_constraint WHERE contype IN ('p', 'u', 'x'))`,
      [LOADED_TABLES],
    );
    for (const { indexname } of indexes.rows) await main.query(`DROP INDEX ${pg.escapeIdentifier(indexname)}`);

    const source = batches(runIds, runCreatedAt);
    let evalResults = 0;
    let criterionResults = 0;
    // Two connections: while Postgres ingests one batch, this process builds the next.
    await Promise.all(
      clients.map(async (client) => {
        for (let next = source.next(); !next.done; next = source.next()) {
          const counted = await insertBatch(client, next.value);
          evalResults += counted.evalResults;
          criterionResults += counted.criteria;
          input.onProgress?.(criterionResults);
        }
      }),
    );
    const loaded = performance.now();

    // Indexes, built in parallel on both connections, then the planner's statistics.
    const queue = [...indexes.rows];
    await Promise.all(
      clients.map(async (client) => {
        await client.query("SET maintenance_work_mem = '256MB'");
        for (let index = queue.shift(); index; index = queue.shift()) await client.query(index.indexdef);
      }),
    );
    await main.query(
      `UPDATE runs r SET passed = t.passed, failed = t.failed, deferred = t.deferred, judge_errors = t.judge_errors, skipped = t.skipped, judge_calls = t.judge_calls, cost_usd = t.cost_usd
       FROM (SELECT run_id, count(*) FILTER (WHERE status = 'passed') AS passed, count(*) FILTER (WHERE status = 'failed') AS failed,
                    count(*) FILTER (WHERE status = 'deferred') AS deferred, count(*) FILTER (WHERE status = 'judge_error') AS judge_errors,
                    count(*) FILTER (WHERE status = 'skipped') AS skipped, sum(judge_calls) AS judge_calls, sum(cost_usd) AS cost_usd
             FROM eval_results GROUP BY run_id) t
       WHERE r.id = t.run_id`,
    );
    await Promise.all(LOADED_TABLES.map((table, i) => clients[i]!.query(`VACUUM ANALYZE ${table}`)));
    await main.query("VACUUM ANALYZE runs, suites");
    const done = performance.now();
    return { suiteId, runIds, bigRunId: runIds[BIG_RUN_INDEX]!, evalResults, criterionResults, loadMs: loaded - started, indexMs: done - loaded };
  } finally {
    await Promise.all(clients.map((client) => client.end()));
  }
}
