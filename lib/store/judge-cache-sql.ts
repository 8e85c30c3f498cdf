import type { PrismaClient } from "./generated/client";

// The judge cache's statements, each for many keys at once (cached-judge.ts batches the calls of a
// tick into one): rows go in as one `json` parameter read by json_to_recordset, as result-batch.ts
// writes results. Keys are sent sorted, so two workers claiming overlapping keys lock them in the
// same order and never deadlock on each other.

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
  const rows = JSON.stringify([...input.rows].sort((a, b) => (a.key < b.key ? -1 : 1)));
  const now = new Date();
  return prisma.$queryRaw<StoredCall[]>`
    WITH input AS (
      SELECT * FROM json_to_recordset(${rows}::json) AS x(key text, model text, "templateVersion" text)
    ), claimed AS (
      INSERT INTO judge_calls (key, status, claimed_by, claimed_at, model, template_version)
      SELECT key, 'pending', ${input.owner}, ${now}::timestamptz, model, "templateVersion"
      FROM input ORDER BY key
      ON CONFLICT (key) DO NOTHING
      RETURNING key
    )
    SELECT input.key, (claimed.key IS NOT NULL) AS owned, j.status, j.claimed_by AS "claimedBy",
      j.claimed_at AS "claimedAt",      j.verdict, j.raw, j.cost_usd AS "costUsd", j.model, j.template_version AS "templateVersion",
      CASE WHEN j.status = 'done' THEN (
        SELECT rc.run_id::text FROM run_calls rc
        WHERE rc.call_key = j.key AND NOT rc.reused
          AND (${input.runId ?? null}::uuid IS NULL OR rc.run_id <> ${input.runId ?? null}::uuid)
        LIMIT 1
      ) END AS "payerRunId"
    FROM input LEFT JOIN claimed ON claimed.key = input.key LEFT JOIN judge_calls j ON j.key = input.key`;
}

/** A stored row the caller may take over, and the claimant it may take it from at once. */
export interface Takeover {
  key: string;
  /** A pending claim in this name is taken whatever its age (its process is gone, or is this one and not paying). */
  fromOwner: string | null;
}

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
  const rows = JSON.stringify([...input.rows].sort((a, b) => (a.key < b.key ? -1 : 1)));
  const now = new Date();
  const stale = new Date(now.getTime() - input.leaseMs);
  const taken = await prisma.$queryRaw<{ key: string }[]>`
    WITH input AS (
      SELECT * FROM json_to_recordset(${rows}::json) AS x(key text, "fromOwner" text)
    ), locked AS (
      SELECT j.key FROM judge_calls j JOIN input ON input.key = j.key
      ORDER BY j.key FOR UPDATE OF j SKIP LOCKED
    )
    UPDATE judge_calls j SET status = 'pending', claimed_by = ${input.owner},
      claimed_at = ${now}::timestamptz
    FROM input
    WHERE j.key = input.key AND j.key IN (SELECT key FROM locked) AND (
      j.status = 'error'
      OR (j.status = 'pending' AND j.claimed_at < ${stale}::timestamptz)
      OR (j.status = 'pending' AND input."fromOwner" IS NOT NULL AND j.claimed_by = input."fromOwner")
      OR (${input.takeDone} AND j.status = 'done'))
    RETURNING j.key`;
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

/**
 * Writes paid calls' rows (releasing their claims) and links each to the run as paid, when there
 * is one. One statement: the database refusing any row refuses them all (the caller writes them
 * again one by one).
 */
export async function recordCalls(
  prisma: PrismaClient,
  input: { records: readonly CallRecord[]; runId: string | undefined },
): Promise<void> {
  if (input.records.length === 0) return;
  const rows = JSON.stringify([...input.records].sort((a, b) => (a.key < b.key ? -1 : 1)));
  await prisma.$executeRaw`
    WITH input AS (
      SELECT * FROM json_to_recordset(${rows}::json) AS x(key text, status text, verdict jsonb, raw jsonb,
        error text, "inputTokens" int, "outputTokens" int, "cacheReadTokens" int, "cacheWriteTokens" int,
        "cacheWrite1hTokens" int, "latencyMs" int, attempts int, "costUsd" float8, provider text,
        "batchId" text)
    ), recorded AS (
      UPDATE judge_calls j SET status = input.status,
        verdict = CASE WHEN input.status = 'done' THEN input.verdict ELSE j.verdict END,
        raw = input.raw, error = input.error, claimed_by = NULL,
        input_tokens = input."inputTokens", output_tokens = input."outputTokens",
        cache_read_tokens = input."cacheReadTokens", cache_write_tokens = input."cacheWriteTokens",
        cache_write_1h_tokens = input."cacheWrite1hTokens", latency_ms = input."latencyMs",
        attempts = input.attempts, cost_usd = input."costUsd", provider = input.provider,
        batch_id = input."batchId", finished_at = ${new Date()}::timestamptz
      FROM input WHERE j.key = input.key
      RETURNING j.key
    )
    INSERT INTO run_calls (run_id, call_key, reused)
    SELECT ${input.runId ?? null}::uuid, key, false FROM recorded
    WHERE ${input.runId ?? null}::uuid IS NOT NULL
    ON CONFLICT (run_id, call_key) DO UPDATE SET reused = false`;
}

/** Links reused calls to the run (a call it had paid for is then counted as reused, as before). */
export async function linkReused(
  prisma: PrismaClient,
  input: { keys: readonly string[]; runId: string },
): Promise<void> {
  if (input.keys.length === 0) return;
  const keys = [...new Set(input.keys)].sort();
  await prisma.$executeRaw`
    INSERT INTO run_calls (run_id, call_key, reused)
    SELECT ${input.runId}::uuid, key, true FROM unnest(${keys}::text[]) AS key
    ON CONFLICT (run_id, call_key) DO UPDATE SET reused = true`;
}
