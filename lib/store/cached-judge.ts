import os from "node:os";
import type {
  JudgeCallContext,
  JudgeOutcome,
  JudgePort,
  JudgeRequest,
  VerdictKind,
} from "../engine/ports/judge-port";
import { replySchemaFor, type Verdict } from "../engine/ports/verdict";
import { Prisma, type PrismaClient } from "./generated/client";
import { requestKey } from "./request-key";
import { storableDeep, storableText } from "./storable";
import { unstoredReason } from "./unstored-result";

/**
 * The keys this process is paying for now, whichever run's judge claimed
 * them. A pending claim in this process's name that is not here is left
 * over from a call whose record could not be written: taken over at once,
 * not waited out for the whole lease (which stalled a worker for 10 minutes
 * behind its own claim).
 */
const payingHere = new Set<string>();

// The content-addressed judge cache, as a JudgePort around the real one.
// Before paying for a request it claims the request's key (a row with status
// pending), so across any number of workers each request is sent once: a
// second worker that meets a fresh claim waits for the verdict; a claim older
// than its lease (its worker died) is taken over. Finished verdicts are reused
// by every later run; errors are not cached, so a resumed run tries again.

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

type Claim =
  | { kind: "owned" }
  | {
      kind: "done";
      row: {
        verdict: unknown;
        raw: unknown;
        costUsd: number | null;
        model: string;
        templateVersion: string;
      };
    }
  | { kind: "wait" };

export function createCachedJudge(options: CachedJudgeOptions): JudgePort {
  const { prisma, inner, runId, owner, reuse, leaseMs } = options;
  const pollMs = options.pollMs ?? 250;
  const sleep = options.sleep ?? defaultSleep;

  const link = async (key: string, reused: boolean) => {
    if (!runId) return;
    await prisma.runCall.upsert({
      where: { runId_callKey: { runId, callKey: key } },
      create: { runId, callKey: key, reused },
      update: { reused },
    });
  };

  const claim = async (key: string, request: JudgeRequest<VerdictKind>): Promise<Claim> => {
    const { count } = await prisma.judgeCall.createMany({
      data: [
        {
          key,
          status: "pending",
          claimedBy: owner,
          claimedAt: new Date(),
          model: request.model,
          templateVersion: request.templateVersion,
        },
      ],
      skipDuplicates: true,
    });
    if (count === 1) return { kind: "owned" };
    const row = await prisma.judgeCall.findUnique({ where: { key } });
    if (!row) return { kind: "wait" };
    if (row.status === "done" && reuse) return { kind: "done", row };
    const stale = new Date(Date.now() - leaseMs);
    // Take the row over when it failed before, when --no-cache asks for a
    // fresh verdict, when its claimant has not finished within the lease, or
    // at once when the claimant was a process on this host that is gone.
    const takeable: Prisma.JudgeCallWhereInput[] = [
      { status: "error" },
      { status: "pending", claimedAt: { lt: stale } },
    ];
    if (row.status === "pending" && row.claimedBy && claimantIsGone(row.claimedBy))
      takeable.push({ status: "pending", claimedBy: row.claimedBy });
    if (row.status === "pending" && row.claimedBy === owner && !payingHere.has(key))
      takeable.push({ status: "pending", claimedBy: owner });
    if (!reuse) takeable.push({ status: "done" });
    const taken = await prisma.judgeCall.updateMany({
      where: { key, OR: takeable },
      data: { status: "pending", claimedBy: owner, claimedAt: new Date() },
    });
    return taken.count === 1 ? { kind: "owned" } : { kind: "wait" };
  };

  return {
    ...(inner.cachePrefixes
      ? { cachePrefixes: (request: JudgeRequest<VerdictKind>) => inner.cachePrefixes!(request) }
      : {}),
    async grade(
      request: JudgeRequest<VerdictKind>,
      context: JudgeCallContext,
    ): Promise<JudgeOutcome<Verdict>> {
      const key = requestKey(request);
      for (;;) {
        const state = await claim(key, request);
        if (state.kind === "done") {
          const verdict = replySchemaFor(request).safeParse(state.row.verdict);
          if (verdict.success) {
            await link(key, true);
            // The run that paid for it, so that a result answered from the cache can say whose verdicts it reused.
            const payer = await prisma.runCall.findFirst({
              where: { callKey: key, reused: false, ...(runId ? { runId: { not: runId } } : {}) },
              select: { runId: true },
            });
            return {
              ok: true,
              verdict: verdict.data,
              call: {
                model: state.row.model,
                templateVersion: state.row.templateVersion,
                attempts: 0,
                latencyMs: 0,
                usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
                costUsd: 0,
                raw: state.row.raw,
                reused: {
                  savedUsd: state.row.costUsd,
                  ...(payer ? { fromRunId: payer.runId } : {}),
                },
              },
            };
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

      payingHere.add(key);
      try {
        const outcome = await inner.grade(request, context);
        await record(key, outcome);
        return outcome;
      } finally {
        payingHere.delete(key);
      }
    },
  };

  /**
   * Writes the call's verdict, tokens and cost, and links it to the run. What
   * the judge wrote is made storable first (storable.ts). Should the database
   * still refuse the verdict, the call is recorded as an error with its cost,
   * so the money spent is counted and the claim is released, not left pending.
   */
  async function record(key: string, outcome: JudgeOutcome<Verdict>): Promise<void> {
    const { call } = outcome;
    const usage = {
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
      finishedAt: new Date(),
    };
    const raw =
      call.raw === undefined ? Prisma.JsonNull : (storableDeep(call.raw) as Prisma.InputJsonValue);
    try {
      await prisma.judgeCall.update({
        where: { key },
        data: outcome.ok
          ? {
              ...usage,
              raw,
              status: "done",
              verdict: storableDeep(outcome.verdict) as Prisma.InputJsonValue,
              error: null,
              claimedBy: null,
            }
          : {
              ...usage,
              raw,
              status: "error",
              error: storableText(`${outcome.error.kind}: ${outcome.error.message}`),
              claimedBy: null,
            },
      });
    } catch (error) {
      await prisma.judgeCall.update({
        where: { key },
        data: { ...usage, status: "error", error: unstoredReason(error), claimedBy: null },
      });
    }
    await link(key, false);
  }
}
