import pg from "pg";
import type { StandIn, StandInStats } from "./stand-in-process";

// What `npm run bench:queue -- --kill-worker-at F` and `-- --batch` measure of
// a queued run beyond its wall time (issue 20): the judge calls the stand-in
// answered (billed) in all against those planned, the calls in flight when a
// worker was killed with SIGKILL (the requests its sockets abandoned), the
// results stored at the end, and for --batch the Message Batches created,
// their sizes and whether every batched request was billed once.

export interface KillFigures {
  /** Calls (or batched requests) the stand-in had billed when the kill was sent. */
  answeredAtKill: number;
  /** Plain calls the killed worker had sent and not had answered. */
  inFlight: number;
  /** The stand-in's calls in flight at its last count before the kill (every worker's). */
  inFlightBefore: number;
  /** The killed worker's calls claimed in the ledger and not finished (its own view of in flight). */
  claimed: number;
  /** Seconds from the kill until the run completed. */
  afterKillMs: number;
}

export interface BillingFigures {
  planned: number;
  /** Plain calls answered 200 (billed), and batched requests billed, in all. */
  answered: number;
  batchedOnce: number;
  batchedMore: number;
  /** Requests in each Message Batch created during the row. */
  batches: number[];
  stored: number;
  resultsPlanned: number;
  kill?: KillFigures;
}

/** Calls billed since `before`: plain answers and batched requests alike. */
export function billedSince(before: StandInStats, now: StandInStats): number {
  const batched = (s: StandInStats) => s.batchBilled.once + s.batchBilled.more;
  return now.answered - before.answered + batched(now) - batched(before);
}

/** Resolves once the stand-in has billed `target` calls since `before` (polled every 50 ms). */
export async function untilBilled(input: {
  standIn: StandIn;
  before: StandInStats;
  target: number;
}): Promise<StandInStats> {
  for (;;) {
    const now = await input.standIn.stats();
    if (billedSince(input.before, now) >= input.target) return now;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** One query on its own connection. */
async function query<T>(url: string, use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

async function count(input: { url: string; sql: string; values: unknown[] }): Promise<number> {
  const { rows } = await query(input.url, (client) =>
    client.query<{ n: string }>(input.sql, input.values),
  );
  return Number(rows[0]!.n);
}

/**
 * Judge calls a killed process had claimed in the ledger (each is claimed before it is sent) and
 * not finished: its calls in flight as the client saw them, answers it had not read included.
 */
export function pendingClaims(url: string, pid: number): Promise<number> {
  return count({
    url,
    sql: "SELECT count(*) AS n FROM judge_calls WHERE status = 'pending' AND claimed_by LIKE $1",
    values: [`%:${pid}`],
  });
}

export function storedResults(url: string, runId: string): Promise<number> {
  return count({
    url,
    sql: "SELECT count(*) AS n FROM eval_results WHERE run_id = $1",
    values: [runId],
  });
}

/** Polls the run's status every 0.5 s until it is neither queued nor running. */
export function waitForRun(url: string, runId: string): Promise<string> {
  return query(url, async (client) => {
    for (;;) {
      const { rows } = await client.query<{ status: string }>(
        "SELECT status FROM runs WHERE id = $1",
        [runId],
      );
      const status = rows[0]?.status ?? "missing";
      if (!["queued", "running"].includes(status)) return status;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  });
}

export function billingFigures(input: {
  before: StandInStats;
  after: StandInStats;
  planned: number;
  resultsPlanned: number;
  stored: number;
  kill?: KillFigures;
}): BillingFigures {
  const { before, after } = input;
  return {
    planned: input.planned,
    answered: billedSince(before, after),
    batchedOnce: after.batchBilled.once - before.batchBilled.once,
    batchedMore: after.batchBilled.more - before.batchBilled.more,
    batches: after.batches.slice(before.batches.length),
    stored: input.stored,
    resultsPlanned: input.resultsPlanned,
    ...(input.kill ? { kill: input.kill } : {}),
  };
}

/** The lines under the queue table: what each row billed, lost and (with --batch) batched. */
export function renderBilling(
  rows: { workers: number | string; billing: BillingFigures }[],
): string {
  const n = (value: number) => value.toLocaleString("en-US");
  return rows
    .map(({ workers, billing: b }) => {
      // A call in flight at the kill is made again by another worker: the real API bills the
      // ones the stand-in left unanswered too, so they count as paid twice.
      const twice = b.answered - b.planned + (b.kill?.inFlight ?? 0);
      // In flight as the worker saw it: claimed and not finished (answers it had not read too).
      const inFlight = Math.max(b.kill?.inFlight ?? 0, b.kill?.claimed ?? 0);
      const parts = [
        `${workers} worker(s): ${n(b.planned)} calls planned, ${n(b.answered)} billed`,
        ...(b.kill
          ? [
              `kill -9 of a worker at ${n(b.kill.answeredAtKill)} billed: ${n(b.kill.claimed)} of its calls claimed and not finished, ${n(b.kill.inFlight)} unanswered by the stand-in (${n(b.kill.inFlightBefore)} in flight in all at its last count); run done ${(b.kill.afterKillMs / 1000).toFixed(1)} s after`,
            ]
          : []),
        `paid twice ${n(twice)} ${twice <= inFlight && b.answered >= b.planned ? "✓ (≤ in flight)" : "✗ beyond in flight"}`,
        ...(b.batches.length
          ? [
              `${b.batches.length} Message Batches of ${summarize(b.batches)} requests`,
              `batched requests billed once ${n(b.batchedOnce)}, more than once ${n(b.batchedMore)} ${b.batchedMore === 0 ? "✓" : "✗"}`,
            ]
          : []),
        `results stored ${n(b.stored)} of ${n(b.resultsPlanned)} ${b.stored === b.resultsPlanned ? "✓" : "✗"}`,
      ];
      return parts.join(" · ");
    })
    .join("\n");
}

/** `3 × 100,000, 1 × 12` style: each distinct batch size with its count, largest first. */
function summarize(sizes: number[]): string {
  const counts = new Map<number, number>();
  for (const size of sizes) counts.set(size, (counts.get(size) ?? 0) + 1);
  return [...counts]
    .sort((a, b) => b[0] - a[0])
    .map(([size, count]) => `${count} × ${size.toLocaleString("en-US")}`)
    .join(", ");
}
