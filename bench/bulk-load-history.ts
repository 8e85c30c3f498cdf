import { randomUUID } from "node:crypto";
import pg from "pg";
import type { EvalResult } from "../lib/engine/results/report";
import { suiteOrderKey } from "../lib/store/suite-order-key";
import { contentHash } from "../lib/store/run-store";
import {
  createRandom,
  JUDGE_MODELS,
  SUITE_FILE,
  suiteYaml,
  syntheticResult,
} from "./synthetic-results";

// Loads the benchmark's run history straight into Postgres: one suite, 500
// runs, 99,820 eval results and exactly 1,000,000 criterion results. 499
// runs grade 45 evals × 4 judge models × 10 criteria; the newest run grades a
// grown suite version of 2,500 evals × 4 models (10,000 results, its first
// 450 evals with an 11th criterion). Rows go in with COPY, one per table and
// batch, on two connections, with the keys and indexes of the two big tables
// dropped during the load and made again afterwards (what a bulk load does).

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

/** Eval results to COPY, each with its run and its creation time. */
export interface Batch {
  results: EvalResult[];
  runIds: string[];
  createdAt: Date[];
}

function* batches(runIds: string[], runCreatedAt: Date[]): Generator<Batch> {
  const random = createRandom(20261121);
  const cells = function* (
    run: number,
    fromEval: number,
    toEval: number,
    criteriaOf: (e: number) => number,
  ) {
    for (let e = fromEval; e < toEval; e++) {
      // Scores drift slowly over the runs, plus a per-run wobble: a trend worth drawing.
      const drift = 0.08 * Math.sin(run / 40 + e) + (random() - 0.5) * 0.04;
      for (const model of JUDGE_MODELS)
        yield syntheticResult({ evalIndex: e, model, criteria: criteriaOf(e), drift, random });
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
    for (const result of cells(
      BIG_RUN_INDEX,
      from,
      Math.min(BIG_EVALS, from + BIG_RUN_BATCH),
      (e) => CRITERIA + (e < BIG_EXTRA_CRITERION_EVALS ? 1 : 0),
    )) {
      batch.results.push(result);
      batch.runIds.push(runIds[BIG_RUN_INDEX]!);
      batch.createdAt.push(at(BIG_RUN_INDEX, i++));
    }
    yield batch;
  }
}

/**
 * COPY … FROM STDIN over a pg client. pg has no COPY of its own (the
 * pg-copy-streams package adds it); this is the same small "submittable":
 * pg hands it the connection, it sends the rows as CopyData messages when the
 * server asks for them, and settles when the server is ready again.
 */
function copyFrom(client: pg.Client, input: { sql: string; rows: string }): Promise<void> {
  return new Promise((resolve, reject) => {
    let failed = false;
    const submittable = {
      submit: (connection: CopyConnection) => connection.query(input.sql),
      handleCopyInResponse: (connection: CopyConnection) => {
        const bytes = Buffer.from(input.rows);
        for (let at = 0; at < bytes.length; at += 1 << 20)
          connection.sendCopyFromChunk(bytes.subarray(at, at + (1 << 20)));
        connection.endCopyFrom();
      },
      handleCommandComplete: () => {},
      handleReadyForQuery: () => {
        if (!failed) resolve();
      },
      handleError: (error: Error) => {
        failed = true;
        reject(error);
      },
    };
    void client.query(submittable as unknown as pg.QueryConfig);
  });
}

interface CopyConnection {
  query(sql: string): void;
  sendCopyFromChunk(chunk: Buffer): void;
  endCopyFrom(): void;
}

/** A value in COPY's text format: \N for null, and backslash, tab and line breaks escaped. */
function field(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined) return "\\N";
  if (typeof value !== "string") return String(value);
  return /[\\\t\n\r]/.test(value)
    ? value.replace(
        /[\\\t\n\r]/g,
        (ch) => ({ "\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r" })[ch]!,
      )
    : value;
}

type Value = string | number | boolean | null | undefined | string[];
const EVAL_COLUMNS =
  "id, run_id, result_key, eval_name, name, cell_model, cell_prompt, judge_model, status, vacuous, score, threshold, reason, note, cost_usd, judge_calls, latency_ms, data, created_at, suite_order";
const CRITERION_COLUMNS =
  "id, eval_result_id, run_id, name, status, score, passed, threshold, weight, required, guard, gates";

/** A batch as table rows (values in the order of EVAL_COLUMNS and CRITERION_COLUMNS): the same mapping as createRunStore().saveResult. */
function tableRows(batch: Batch): { results: Value[][]; criteria: Value[][] } {
  const results: Value[][] = [];
  const criteria: Value[][] = [];
  batch.results.forEach((r, index) => {
    const id = randomUUID();
    const runId = batch.runIds[index]!;
    results.push([
      id,
      runId,
      r.id,
      r.eval,
      r.name,
      r.cell?.model,
      r.cell?.promptIndex,
      r.judge.models[0],
      r.status,
      r.vacuous,
      r.score,
      r.threshold,
      r.reason,
      r.note,
      r.costUsd,
      r.judgeCalls,
      Math.round(r.latencyMs),
      JSON.stringify(r),
      batch.createdAt[index]!.toISOString(),
      suiteOrderKey(r),
    ]);
    for (const k of r.criteria) {
      criteria.push([
        randomUUID(),
        id,
        runId,
        k.name,
        k.status,
        k.score,
        k.passed,
        k.threshold,
        k.weight,
        k.required,
        k.guard,
        k.gates,
      ]);
    }
  });
  return { results, criteria };
}

/** Copies one batch: its eval results, then their criteria (the FK needs the parents first). */
export async function copyBatch(
  client: pg.Client,
  batch: Batch,
): Promise<{ evalResults: number; criteria: number }> {
  const { results, criteria } = tableRows(batch);
  const text = (rows: Value[][]) =>
    `${rows.map((row) => row.map((v) => (Array.isArray(v) ? `{${v.join(",")}}` : field(v))).join("\t")).join("\n")}\n`;
  await copyFrom(client, {
    sql: `COPY eval_results (${EVAL_COLUMNS}) FROM STDIN`,
    rows: text(results),
  });
  await copyFrom(client, {
    sql: `COPY criterion_results (${CRITERION_COLUMNS}) FROM STDIN`,
    rows: text(criteria),
  });
  return { evalResults: results.length, criteria: criteria.length };
}

/**
 * The same rows as copyBatch, as one INSERT per table from a JSON array, for
 * servers without COPY FROM STDIN: the embedded PGlite server (pglite-socket)
 * loses protocol synchronisation on CopyData.
 */
export async function insertBatch(
  client: pg.Client,
  batch: Batch,
): Promise<{ evalResults: number; criteria: number }> {
  const { results, criteria } = tableRows(batch);
  const insert = async (table: string, columns: string, rows: Value[][]) => {
    const names = columns.split(", ");
    const objects = rows.map((row) =>
      Object.fromEntries(
        names.map((n, i) => [n, n === "data" ? JSON.parse(row[i] as string) : (row[i] ?? null)]),
      ),
    );
    await client.query(
      `INSERT INTO ${table} (${columns}) SELECT ${columns} FROM json_populate_recordset(NULL::${table}, $1::json)`,
      [JSON.stringify(objects)],
    );
  };
  await insert("eval_results", EVAL_COLUMNS, results);
  await insert("criterion_results", CRITERION_COLUMNS, criteria);
  return { evalResults: results.length, criteria: criteria.length };
}

export async function bulkLoadHistory(input: {
  connection: pg.ClientConfig;
  onProgress?: (criteria: number) => void;
}): Promise<LoadedHistory> {
  const clients = [new pg.Client(input.connection), new pg.Client(input.connection)];
  await Promise.all(clients.map((client) => client.connect()));
  const [main] = clients as [pg.Client, pg.Client];
  try {
    const started = performance.now();
    const suiteId = randomUUID();
    const versionIds = [randomUUID(), randomUUID()];
    await main.query("INSERT INTO suites (id, name, updated_at) VALUES ($1, $2, now())", [
      suiteId,
      SUITE_NAME,
    ]);
    const yamls = [suiteYaml(ORDINARY_EVALS, CRITERIA), suiteYaml(BIG_EVALS, CRITERIA + 1)];
    for (const [i, yaml] of yamls.entries()) {
      await main.query(
        "INSERT INTO suite_versions (id, suite_id, content_hash, yaml, created_at) VALUES ($1, $2, $3, $4, now() - interval '300 days')",
        [versionIds[i], suiteId, contentHash(yaml), yaml],
      );
    }
    // One run every 12 hours, the newest an hour ago.
    const now = Date.now();
    const runIds = Array.from({ length: RUNS }, () => randomUUID());
    const runCreatedAt = runIds.map(
      (_, i) => new Date(now - 3_600_000 - (RUNS - 1 - i) * 12 * 3_600_000),
    );
    const config = JSON.stringify({
      file: SUITE_FILE,
      toolVersion: "0.1.0",
      judgeModel: JUDGE_MODELS[0],
      concurrency: 16,
      timeoutSeconds: 120,
    });
    await main.query(
      `INSERT INTO runs (id, suite_id, suite_version_id, status, started_by, host, config, created_at, started_at, finished_at, total_cells)
       SELECT id, $2, CASE WHEN ord = $5 THEN $4::uuid ELSE $3::uuid END, 'completed', CASE WHEN ord % 3 = 0 THEN 'dashboard' ELSE 'cli' END, 'ci-runner-' || (ord % 4),
              $6::jsonb, created_at, created_at, created_at + interval '20 minutes', CASE WHEN ord = $5 THEN ${BIG_EVALS * JUDGE_MODELS.length} ELSE ${ORDINARY_EVALS * JUDGE_MODELS.length} END
       FROM unnest($1::uuid[], $7::timestamptz[]) WITH ORDINALITY AS t(id, created_at, ord)`,
      [
        runIds,
        suiteId,
        versionIds[0],
        versionIds[1],
        RUNS,
        config,
        runCreatedAt.map((d) => d.toISOString()),
      ],
    );

    // Constraints (foreign keys first) and indexes are dropped for the load and
    // made again afterwards, each with one pass over the table, from their own
    // definitions: whatever the migrations created, a new index included.
    const constraints = await main.query<{ table: string; name: string; def: string }>(
      `SELECT conrelid::regclass::text AS table, conname AS name, pg_get_constraintdef(oid) AS def
       FROM pg_constraint WHERE conrelid = ANY($1::regclass[]) AND contype IN ('p', 'f') ORDER BY contype = 'f' DESC`,
      [LOADED_TABLES],
    );
    const indexes = await main.query<{ indexname: string; indexdef: string }>(
      `SELECT indexname, indexdef FROM pg_indexes
       WHERE schemaname = current_schema() AND tablename = ANY($1)
         AND indexname NOT IN (SELECT conname FROM pg_constraint WHERE contype IN ('p', 'u', 'x'))`,
      [LOADED_TABLES],
    );
    for (const c of constraints.rows)
      await main.query(
        `ALTER TABLE ${pg.escapeIdentifier(c.table)} DROP CONSTRAINT ${pg.escapeIdentifier(c.name)}`,
      );
    for (const { indexname } of indexes.rows)
      await main.query(`DROP INDEX ${pg.escapeIdentifier(indexname)}`);

    const source = batches(runIds, runCreatedAt);
    let evalResults = 0;
    let criterionResults = 0;
    // Two connections: while Postgres ingests one batch, this process builds the next.
    await Promise.all(
      clients.map(async (client) => {
        for (let next = source.next(); !next.done; next = source.next()) {
          const counted = await copyBatch(client, next.value);
          evalResults += counted.evalResults;
          criterionResults += counted.criteria;
          input.onProgress?.(criterionResults);
        }
      }),
    );
    const loaded = performance.now();

    // Primary keys, then indexes in parallel on both connections, then the
    // foreign keys (each validated with one join), then the planner's statistics.
    const restore = async (client: pg.Client, statements: string[]) => {
      await client.query("SET maintenance_work_mem = '256MB'");
      for (let sql = statements.shift(); sql; sql = statements.shift()) await client.query(sql);
    };
    const constraintSql = (kind: "p" | "f") =>
      constraints.rows
        .filter((c) => c.def.startsWith(kind === "p" ? "PRIMARY KEY" : "FOREIGN KEY"))
        .map(
          (c) =>
            `ALTER TABLE ${pg.escapeIdentifier(c.table)} ADD CONSTRAINT ${pg.escapeIdentifier(c.name)} ${c.def}`,
        );
    for (const statements of [
      [...constraintSql("p"), ...indexes.rows.map((i) => i.indexdef)],
      constraintSql("f"),
    ]) {
      await Promise.all(clients.map((client) => restore(client, statements)));
    }
    await main.query(
      `UPDATE runs r SET passed = t.passed, failed = t.failed, deferred = t.deferred, judge_errors = t.judge_errors, skipped = t.skipped, judge_calls = t.judge_calls, cost_usd = t.cost_usd
       FROM (SELECT run_id, count(*) FILTER (WHERE status = 'passed') AS passed, count(*) FILTER (WHERE status = 'failed') AS failed,
                    count(*) FILTER (WHERE status = 'deferred') AS deferred, count(*) FILTER (WHERE status = 'judge_error') AS judge_errors,
                    count(*) FILTER (WHERE status = 'skipped') AS skipped, sum(judge_calls) AS judge_calls, sum(cost_usd) AS cost_usd
             FROM eval_results GROUP BY run_id) t
       WHERE r.id = t.run_id`,
    );
    await Promise.all(
      LOADED_TABLES.map((table, i) => clients[i]!.query(`VACUUM ANALYZE ${table}`)),
    );
    await main.query("VACUUM ANALYZE runs, suites");
    const done = performance.now();
    return {
      suiteId,
      runIds,
      bigRunId: runIds[BIG_RUN_INDEX]!,
      evalResults,
      criterionResults,
      loadMs: loaded - started,
      indexMs: done - loaded,
    };
  } finally {
    await Promise.all(clients.map((client) => client.end()));
  }
}
