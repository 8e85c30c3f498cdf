import os from "node:os";
import type {
  JudgeCallContext,
  JudgeOutcome,
  JudgePort,
  JudgeRequest,
  VerdictKind,
} from "../engine/ports/judge-port";
import { replySchemaFor, type Verdict } from "../engine/ports/verdict";
import type { PrismaClient } from "./generated/client";
import {
  claimOrRead,
  linkReused,
  recordCalls,
  takeOver,
  type CallRecord,
  type StoredCall,
} from "./judge-cache-sql";
import { createMicroBatcher } from "./micro-batch";
import { requestKey } from "./request-key";
import { storableDeep, storableText } from "./storable";
import { unstoredReason } from "./unstored-result";

// The content-addressed judge cache, as a JudgePort around the real one.
// Before paying for a request it claims the request's key (a row with status
// pending), so across any number of workers each request is sent once: a
// second worker that meets a fresh claim waits for the verdict; a claim older
// than its lease (its worker died) is taken over. Finished verdicts are reused
// by every later run; errors are not cached, so a resumed run tries again.
// The calls of a tick share their statements (micro-batch.ts, judge-cache-sql.ts):
// one claims or reads every key, one takes over what may be taken, one records
// the paid calls and links them to the run, one links the reused ones.

/**
 * The keys this process is paying for now (or claiming this moment), whichever
 * run's judge claimed them, with how many calls hold each. A pending claim in
 * this process's name that is not here is left over from a call whose record
 * could not be written: taken over at once, not waited out for the whole lease
 * (which stalled a worker for 10 minutes behind its own claim).
 */
const payingHere = new Map<string, number>();
const hold = (key: string) => payingHere.set(key, (payingHere.get(key) ?? 0) + 1);
function drop(key: string) {
  const held = (payingHere.get(key) ?? 0) - 1;
  if (held > 0) payingHere.set(key, held);
  else payingHere.delete(key);
}

export interface CachedJudgeOptions {
  prisma: PrismaClient;
  inner: JudgePort;
  /** Links every call to this run (reused or paid), when set. */
  runId?: string;
  /** Who holds claims: host and pid of this worker. */
  owner: string;
  /** `false` (--no-cache): always ask the judge, and store the fresh verdict. */
  reuse: boolean;
  /** How long a claim holds before another worker may take it over. */
  leaseMs: number;
  pollMs?: number;
  sleep?: (ms: number) => Promise<void>;
  /** The most calls one statement serves (default 500). */
  batchSize?: number;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The owner string a worker claims with: host and process id. */
export function claimOwner(): string {
  return `${os.hostname()}:${process.pid}`;
}

function claimantIsGone(owner: string): boolean {
  const at = owner.lastIndexOf(":");
  const host = owner.slice(0, at);
  const pid = Number(owner.slice(at + 1));
  if (host !== os.hostname() || !Number.isInteger(pid) || pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ESRCH";
  }
}

type Claim = { kind: "owned" } | { kind: "done"; row: StoredCall } | { kind: "wait" };

interface ClaimInput {
  key: string;
  model: string;
  templateVersion: string;
}

export function createCachedJudge(options: CachedJudgeOptions): JudgePort {
  const { prisma, inner, runId, owner, reuse, leaseMs } = options;
  const pollMs = options.pollMs ?? 250;
  const sleep = options.sleep ?? defaultSleep;
  const maxItems = options.batchSize ?? 500;

  /**
   * The claimant a pending row of this batch may be taken from at once, or null. The batch holds
   * each of its keys once: a key held more is being paid for by another call of this process.
   */
  const takeableFrom = (row: StoredCall): string | null => {
    if (row.status !== "pending" || !row.claimedBy) return null;
    if (row.claimedBy === owner) return (payingHere.get(row.key) ?? 0) > 1 ? null : owner;
    return claimantIsGone(row.claimedBy) ? row.claimedBy : null;
  };
  /** Whether the takeover statement could take the row: a fresh claim held by a live claimant is waited for. */
  const mayTake = (row: StoredCall, fromOwner: string | null) =>
    row.status !== "pending" ||
    fromOwner !== null ||
    row.claimedAt === null ||
    row.claimedAt.getTime() < Date.now() - leaseMs;

  const claim = createMicroBatcher<ClaimInput, Claim>({
    maxItems,
    async run(items) {
      const unique = [...new Map(items.map((item) => [item.key, item])).values()];
      // Held while claiming, so that another judge of this process does not take these keys
      // over as left behind while this statement has them.
      for (const { key } of unique) hold(key);
      const answers = new Map<string, Claim>();
      let failed = true;
      try {
        const rows = await claimOrRead(prisma, { rows: unique, owner, runId });
        const takeable = [];
        for (const row of rows) {
          if (row.owned) answers.set(row.key, { kind: "owned" });
          else if (row.status === null) answers.set(row.key, { kind: "wait" });
          else if (row.status === "done" && reuse) answers.set(row.key, { kind: "done", row });
          else {
            const fromOwner = takeableFrom(row);
            if (mayTake(row, fromOwner)) takeable.push({ key: row.key, fromOwner });
          }
        }
        const taken = await takeOver(prisma, { rows: takeable, owner, leaseMs, takeDone: !reuse });
        for (const { key } of takeable)
          answers.set(key, taken.has(key) ? { kind: "owned" } : { kind: "wait" });
        failed = false;
      } finally {
        // A key owned is held until its call is recorded; a batch that failed pays for none.
        for (const { key } of unique) if (failed || answers.get(key)?.kind !== "owned") drop(key);
      }
      // A key asked twice in one batch is paid by the first; the others wait for its verdict.
      const first = new Set<string>();
      return items.map((item) => {
        const answer = answers.get(item.key) ?? { kind: "wait" };
        if (answer.kind === "owned" && first.has(item.key)) return { kind: "wait" };
        first.add(item.key);
        return answer;
      });
    },
  });

  const record = createMicroBatcher<CallRecord, void>({
    maxItems,
    async run(records) {
      try {
        await recordCalls(prisma, { records, runId });
      } catch {
        // One row the database refuses refuses the statement: each is written alone, so only
        // that one is recorded as an error (with its cost) and the others keep their verdicts.
        for (const one of records) await recordOrCause(one);
      }
      return records.map(() => undefined);
    },
  });

  const linkReuse = createMicroBatcher<string, void>({
    maxItems,
    async run(keys) {
      if (runId) await linkReused(prisma, { keys, runId });
      return keys.map(() => undefined);
    },
  });

  /**
   * One call's row alone; should the database still refuse the verdict, the call is recorded as
   * an error with its cost, so the money spent is counted and the claim is released, not left
   * pending.
   */
  async function recordOrCause(one: CallRecord): Promise<void> {
    try {
      await recordCalls(prisma, { records: [one], runId });
    } catch (error) {
      const instead = { ...one, status: "error" as const, raw: null, error: unstoredReason(error) };
      await recordCalls(prisma, { records: [instead], runId });
    }
  }

  return {
    ...(inner.cachePrefixes
      ? { cachePrefixes: (request: JudgeRequest<VerdictKind>) => inner.cachePrefixes!(request) }
      : {}),
    async grade(
      request: JudgeRequest<VerdictKind>,
      context: JudgeCallContext,
    ): Promise<JudgeOutcome<Verdict>> {
      const key = requestKey(request);
      const asked = { key, model: request.model, templateVersion: request.templateVersion };
      for (;;) {
        const state = await claim(asked);
        if (state.kind === "done") {
          const verdict = replySchemaFor(request).safeParse(state.row.verdict);
          if (verdict.success) {
            await linkReuse(key);
            return reusedOutcome(state.row, verdict.data);
          }
          // A stored verdict that no longer parses (the schema changed) is
          // not reused: take the row over and ask again.
          await prisma.judgeCall.updateMany({
            where: { key, status: "done" },
            data: { status: "error", error: "stored verdict no longer parses" },
          });
          continue;
        }
        if (state.kind === "wait") {
          // Another worker is paying for this very request: give the slot back while waiting.
          context.slot.release();
          await sleep(pollMs);
          await context.slot.acquire();
          if (context.signal?.aborted) return inner.grade(request, context);
          continue;
        }
        break;
      }

      // Held since the claim (the batch holds each key it claims).
      try {
        const outcome = await inner.grade(request, context);
        await record(recordOf(asked, outcome));
        return outcome;
      } finally {
        drop(key);
      }
    },
  };
}

/** A stored verdict as the outcome of a call that cost nothing, saying what it saved and whose it was. */
function reusedOutcome(row: StoredCall, verdict: Verdict): JudgeOutcome<Verdict> {
  return {
    ok: true,
    verdict,
    call: {
      model: row.model ?? "",
      templateVersion: row.templateVersion ?? "",
      attempts: 0,
      latencyMs: 0,
      usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
      costUsd: 0,
      raw: row.raw,
      // The run that paid for it, so that a result answered from the cache can say whose verdicts it reused.
      reused: { savedUsd: row.costUsd, ...(row.payerRunId ? { fromRunId: row.payerRunId } : {}) },
    },
  };
}

/** A paid call's row: its verdict (or error), tokens and cost, made storable first (storable.ts). */
function recordOf(asked: ClaimInput, outcome: JudgeOutcome<Verdict>): CallRecord {
  const { call } = outcome;
  return {
    ...asked,
    status: outcome.ok ? "done" : "error",
    verdict: outcome.ok ? storableDeep(outcome.verdict) : null,
    raw: call.raw === undefined ? null : storableDeep(call.raw),
    error: outcome.ok ? null : storableText(`${outcome.error.kind}: ${outcome.error.message}`),
    inputTokens: call.usage.input,
    outputTokens: call.usage.output,
    cacheReadTokens: call.usage.cacheRead,
    cacheWriteTokens: call.usage.cacheWrite,
    cacheWrite1hTokens: call.usage.cacheWrite1h ?? 0,
    latencyMs: Math.round(call.latencyMs),
    attempts: call.attempts,
    costUsd: call.costUsd,
    // What the run page prices the call by: its provider's table, at batch prices when batched.
    provider: call.provider ?? null,
    batchId: call.batched?.batchId ?? null,
  };
}
