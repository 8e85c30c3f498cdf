import { queryDirect } from "./connection";
import type { PrismaClient } from "./generated/client";

// The judge cache's statements, each for many keys at once (cached-judge.ts batches the calls of a
// tick into one): rows go in as one `json` parameter read by json_to_recordset, as result-batch.ts
// writes results, and their keys as a text[] too, so that judge_calls is read by its primary key
// (joined to json_to_recordset alone, the planner scans the whole table: a million rows at the end
// of a big run, for every batch). Keys are sent sorted, so two workers claiming overlapping keys
// lock them in the same order and never deadlock on each other.

/** A stored call as a claim reads it. */
export interface StoredCall {
  key: string;
  /** This statement inserted the claim: the caller pays for the call. */
  owned: boolean;
  /** null: the row was claimed by another worker after this statement's snapshot. */
  status: string | null;
  claimedBy: string | null;
  claimedAt: Date | null;
  verdict: unknown;
  raw: unknown;
  costUsd: number | null;
  model: string | null;
  templateVersion: string | null;
  /** A done row's: a run other than this one that paid for it. */
  payerRunId: string | null;
}

// Straight to the pool (connection.ts, queryDirect): through Prisma each statement's parameters
// and every row it returns were converted twice, a tenth of a stored run's CPU.
const CLAIM_OR_READ = `
    WITH input AS (
      SELECT * FROM json_to_recordset($1::json) AS x(key text, model text, "templateVersion" text)
    ), claimed AS (
      INSERT INTO judge_calls (key, status, claimed_by, claimed_at, model, template_version)
      SELECT key, 'pending', $2, $3::timestamptz, model, "templateVersion"
      FROM input ORDER BY key
      ON CONFLICT (key) DO NOTHING
      RETURNING key
    )
    SELECT input.key, (claimed.key IS NOT NULL) AS owned, j.status, j.claimed_by AS "claimedBy",
      j.claimed_at AS "claimedAt", j.verdict, j.raw, j.cost_usd AS "costUsd", j.model,
      j.template_version AS "templateVersion",
      CASE WHEN j.status = 'done' THEN (
        SELECT rc.run_id::text FROM run_calls rc
        WHERE rc.call_key = j.key AND NOT rc.reused
          AND ($4::uuid IS NULL OR rc.run_id <> $4::uuid)
        LIMIT 1
      ) END AS "payerRunId"
    FROM input LEFT JOIN claimed ON claimed.key = input.key
    -- One primary-key lookup per key (OFFSET 0 keeps the planner from scanning the table instead).
    LEFT JOIN LATERAL (SELECT * FROM judge_calls WHERE key = input.key OFFSET 0) j ON true`;

/**
 * Claims each key not yet stored (a pending row in `owner`'s name) and reads the stored row of
 * every other key, with the run that paid for a done one. One statement.
 */
export async function claimOrRead(
  prisma: PrismaClient,
  input: {
    rows: readonly { key: string; model: string; templateVersion: string }[];
    owner: string;
    runId: string | undefined;
  },
): Promise<StoredCall[]> {
  const sorted = [...input.rows].sort((a, b) => (a.key < b.key ? -1 : 1));
  const rows = JSON.stringify(sorted);
  const now = new Date().toISOString();
  return queryDirect<StoredCall>(prisma, CLAIM_OR_READ, [
    rows,
    input.owner,
    now,
    input.runId ?? null,
  ]);
}

/** A stored row the caller may take over, and the claimant it may take it from at once. */
export interface Takeover {
  key: string;
  /** A pending claim in this name is taken whatever its age (its process is gone, or is this one and not paying). */
  fromOwner: string | null;
}

const TAKE_OVER = `
    WITH input AS (
      SELECT * FROM json_to_recordset($1::json) AS x(key text, "fromOwner" text)
    ), locked AS (
      SELECT j.key FROM judge_calls j WHERE j.key = ANY($2::text[])
      ORDER BY j.key FOR UPDATE SKIP LOCKED
    )
    UPDATE judge_calls j SET status = 'pending', claimed_by = $3, claimed_at = $4::timestamptz
    FROM input
    WHERE j.key = ANY($2::text[]) AND j.key = input.key AND j.key IN (SELECT key FROM locked) AND (
      j.status = 'error'
      OR (j.status = 'pending' AND j.claimed_at < $5::timestamptz)
      OR (j.status = 'pending' AND input."fromOwner" IS NOT NULL AND j.claimed_by = input."fromOwner")
      OR ($6::boolean AND j.status = 'done'))
    RETURNING j.key`;

/**
 * Takes over, in `owner`'s name, each row that failed before, whose claim outlived the lease, whose
 * claimant is `fromOwner`, or (`takeDone`, --no-cache) that is done; a row another worker is taking
 * over at this moment is skipped. Returns the keys taken. One statement.
 */
export async function takeOver(
  prisma: PrismaClient,
  input: { rows: readonly Takeover[]; owner: string; leaseMs: number; takeDone: boolean },
): Promise<Set<string>> {
  if (input.rows.length === 0) return new Set();
  const sorted = [...input.rows].sort((a, b) => (a.key < b.key ? -1 : 1));
  const rows = JSON.stringify(sorted);
  const keys = sorted.map((row) => row.key);
  const now = new Date();
  const stale = new Date(now.getTime() - input.leaseMs);
  const taken = await queryDirect<{ key: string }>(prisma, TAKE_OVER, [
    rows,
    keys,
    input.owner,
    now.toISOString(),
    stale.toISOString(),
    input.takeDone,
  ]);
  return new Set(taken.map((row) => row.key));
}

/** What a paid call's row is written with (Prisma's field names; `raw` and `verdict` already storable). */
export interface CallRecord {
  key: string;
  status: "done" | "error";
  /** Written only when done; an error row keeps what it had. */
  verdict: unknown;
  raw: unknown;
  error: string | null;
  model: string;
  templateVersion: string;
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  cacheWrite1hTokens: number;
  latencyMs: number;
  attempts: number;
  costUsd: number | null;
  provider: string | null;
  batchId: string | null;
}

const RECORD_CALLS = `
    WITH input AS (
      SELECT * FROM json_to_recordset($1::json) AS x(key text, status text, verdict jsonb, raw jsonb,
        error text, model text, "templateVersion" text, "inputTokens" int, "outputTokens" int,
        "cacheReadTokens" int, "cacheWriteTokens" int, "cacheWrite1hTokens" int, "latencyMs" int,
        attempts int, "costUsd" float8, provider text, "batchId" text)
    ), recorded AS (
      INSERT INTO judge_calls AS j (key, status, verdict, raw, error, model, template_version,
        input_tokens, output_tokens, cache_read_tokens, cache_write_tokens, cache_write_1h_tokens,
        latency_ms, attempts, cost_usd, provider, batch_id, finished_at)
      SELECT key, status, CASE WHEN status = 'done' THEN verdict END, raw, error, model,
        "templateVersion", "inputTokens", "outputTokens", "cacheReadTokens", "cacheWriteTokens",
        "cacheWrite1hTokens", "latencyMs", attempts, "costUsd", provider, "batchId",
        $2::timestamptz
      FROM input ORDER BY key
      ON CONFLICT (key) DO UPDATE SET status = EXCLUDED.status,
        verdict = CASE WHEN EXCLUDED.status = 'done' THEN EXCLUDED.verdict ELSE j.verdict END,
        raw = EXCLUDED.raw, error = EXCLUDED.error, claimed_by = NULL,
        input_tokens = EXCLUDED.input_tokens, output_tokens = EXCLUDED.output_tokens,
        cache_read_tokens = EXCLUDED.cache_read_tokens, cache_write_tokens = EXCLUDED.cache_write_tokens,
        cache_write_1h_tokens = EXCLUDED.cache_write_1h_tokens, latency_ms = EXCLUDED.latency_ms,
        attempts = EXCLUDED.attempts, cost_usd = EXCLUDED.cost_usd, provider = EXCLUDED.provider,
        batch_id = EXCLUDED.batch_id, finished_at = EXCLUDED.finished_at
      RETURNING j.key
    )
    INSERT INTO run_calls (run_id, call_key, reused)
    SELECT $3::uuid, key, false FROM recorded
    WHERE $3::uuid IS NOT NULL
    ON CONFLICT (run_id, call_key) DO UPDATE SET reused = false`;

/**
 * Writes paid calls' rows (releasing their claims) and links each to the run as paid, when there
 * is one. One statement: the database refusing any row refuses them all (the caller writes them
 * again one by one). An upsert on the key, not an UPDATE ... FROM: the conflict finds each row by
 * its primary key, where a join to json_to_recordset would scan the table.
 */
export async function recordCalls(
  prisma: PrismaClient,
  input: { records: readonly CallRecord[]; runId: string | undefined },
): Promise<void> {
  if (input.records.length === 0) return;
  // One row a key (the last): an upsert may not change a row twice.
  const byKey = new Map(input.records.map((record) => [record.key, record]));
  const rows = JSON.stringify([...byKey.values()].sort((a, b) => (a.key < b.key ? -1 : 1)));
  await queryDirect(prisma, RECORD_CALLS, [rows, new Date().toISOString(), input.runId ?? null]);
}

const LINK_REUSED = `
    INSERT INTO run_calls (run_id, call_key, reused)
    SELECT $1::uuid, key, true FROM unnest($2::text[]) AS key
    ON CONFLICT (run_id, call_key) DO UPDATE SET reused = true`;

/** Links reused calls to the run (a call it had paid for is then counted as reused, as before). */
export async function linkReused(
  prisma: PrismaClient,
  input: { keys: readonly string[]; runId: string },
): Promise<void> {
  if (input.keys.length === 0) return;
  const keys = [...new Set(input.keys)].sort();
  await queryDirect(prisma, LINK_REUSED, [input.runId, keys]);
}
