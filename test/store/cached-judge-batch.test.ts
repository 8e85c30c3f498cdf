import { spawnSync } from "node:child_process";
import os from "node:os";
import { describe, expect, it } from "vitest";
import type { JudgeRequest, JudgeSlot } from "../../lib/engine/ports/judge-port";
import { createPrismaClient, type PrismaClient } from "../../lib/store/connection";
import { createCachedJudge } from "../../lib/store/cached-judge";
import { requestKey } from "../../lib/store/request-key";
import { always, createFakeJudge } from "../support/fake-judge";
import { useTestDatabase } from "../support/test-database";

// The judge cache with many calls at once, as a run of thousands of cells makes them: the calls of
// a tick share their statements, and batching them loses none of what one call at a time kept
// (each request paid once across workers, a refused verdict recorded as an error with its cost
// while the others keep theirs, a crashed claimant's claims taken over).

const database = useTestDatabase();

let suiteNumber = 0;
function requests(count: number, tag = `batch ${++suiteNumber}`): JudgeRequest[] {
  return Array.from({ length: count }, (_, i) => ({
    model: "claude-haiku-4-5",
    maxTokens: 1024,
    templateVersion: "rubric-v1",
    stablePrompt: `## Criterion: ${tag} #${i}`,
    candidatePrompt: "<candidate_response>2.3.0 added rate limits</candidate_response>",
    taskPrompt: "Grade the criterion now.",
    verdict: "score",
    sample: 1,
  }));
}

const slot = (): JudgeSlot => ({ release: () => {}, acquire: async () => {} });

/** The client, counting every statement sent through it. */
function counting(prisma: PrismaClient): { prisma: PrismaClient; readonly statements: number } {
  let statements = 0;
  const extended = prisma.$extends({
    query: {
      async $allOperations({ args, query }) {
        statements++;
        return query(args);
      },
    },
  }) as unknown as PrismaClient;
  return {
    prisma: extended,
    get statements() {
      return statements;
    },
  };
}

async function newRun(prisma: PrismaClient): Promise<string> {
  const suite = await prisma.suite.create({ data: { name: `batch suite ${++suiteNumber}` } });
  const version = await prisma.suiteVersion.create({
    data: { suiteId: suite.id, contentHash: "h", yaml: "evals: []" },
  });
  const run = await prisma.run.create({
    data: {
      suiteId: suite.id,
      suiteVersionId: version.id,
      status: "running",
      startedBy: "cli",
      host: "h",
      config: {},
    },
  });
  return run.id;
}

describe("the judge cache under many calls at once", () => {
  it("200 calls at once share a few statements, paid or reused, instead of three each", async () => {
    const counted = counting(database.prisma);
    const runId = await newRun(database.prisma);
    const inner = createFakeJudge(always({ score: 0.8, costUsd: 0.001 }));
    const asked = requests(200);
    const judge = (run: string) =>
      createCachedJudge({
        prisma: counted.prisma,
        inner,
        runId: run,
        owner: "batching",
        reuse: true,
        leaseMs: 60_000,
      });
    const first = judge(runId);
    const paid = await Promise.all(asked.map((r) => first.grade(r, { slot: slot() })));
    expect(paid.every((o) => o.ok && o.call.costUsd === 0.001)).toBe(true);
    expect(inner.requests).toHaveLength(200);
    // Before: a claim, a record and a link per call (600).
    expect(counted.statements).toBeLessThanOrEqual(20);

    const before = counted.statements;
    const again = await newRun(database.prisma);
    const second = judge(again);
    const reused = await Promise.all(asked.map((r) => second.grade(r, { slot: slot() })));
    expect(inner.requests).toHaveLength(200);
    expect(reused.map((o) => o.ok && o.call.reused)).toEqual(
      asked.map(() => ({ savedUsd: 0.001, fromRunId: runId })),
    );
    // Before: a claim, a link and a payer lookup per call (600).
    expect(counted.statements - before).toBeLessThanOrEqual(20);
    const links = await database.prisma.runCall.groupBy({
      by: ["runId", "reused"],
      where: { runId: { in: [runId, again] } },
      _count: true,
    });
    expect(links.map((l) => [l.runId, l.reused, l._count]).sort()).toEqual(
      [
        [runId, false, 200],
        [again, true, 200],
      ].sort(),
    );
  });

  it("two workers asking the same 150 requests at once pay for each exactly once", async () => {
    const other = createPrismaClient(database.url);
    try {
      const asked = requests(150);
      const inner = createFakeJudge(always({ score: 0.7, reasoning: "same", delayMs: 30 }));
      const worker = (prisma: PrismaClient, owner: string) =>
        createCachedJudge({ prisma, inner, owner, reuse: true, leaseMs: 60_000, pollMs: 10 });
      const a = worker(database.prisma, "host-a:1");
      const b = worker(other, "host-b:1");
      // Each worker asks in its own order, so their batches overlap in every way.
      const outcomes = await Promise.all([
        ...asked.map((r) => a.grade(r, { slot: slot() })),
        ...[...asked].reverse().map((r) => b.grade(r, { slot: slot() })),
      ]);
      expect(outcomes.every((o) => o.ok && o.verdict.reasoning === "same")).toBe(true);
      const paid = inner.requests.map((r) => requestKey(r));
      expect(paid).toHaveLength(150);
      expect(new Set(paid).size).toBe(150);
      const keys = asked.map((r) => requestKey(r));
      expect(
        await database.prisma.judgeCall.count({ where: { key: { in: keys }, status: "done" } }),
      ).toBe(150);
    } finally {
      await other.$disconnect();
    }
  });

  it("a verdict the database refuses is an error with its cost; the others of its batch keep their verdicts", async () => {
    await database.prisma.$executeRawUnsafe(
      `CREATE OR REPLACE FUNCTION refuse_verdict() RETURNS trigger AS $$ BEGIN IF NEW.verdict->>'reasoning' = 'refuse me' THEN RAISE EXCEPTION 'refused by the test''s trigger'; END IF; RETURN NEW; END $$ LANGUAGE plpgsql`,
    );
    await database.prisma.$executeRawUnsafe(
      `CREATE TRIGGER refuse_verdict BEFORE UPDATE ON judge_calls FOR EACH ROW EXECUTE FUNCTION refuse_verdict()`,
    );
    try {
      const runId = await newRun(database.prisma);
      const asked = requests(12);
      const refusedKey = requestKey(asked[5]!);
      const inner = createFakeJudge((r) => ({
        score: 0.9,
        reasoning: requestKey(r) === refusedKey ? "refuse me" : "kept",
        costUsd: 0.004,
      }));
      const judge = createCachedJudge({
        prisma: database.prisma,
        inner,
        runId,
        owner: "refusing",
        reuse: true,
        leaseMs: 60_000,
      });
      const outcomes = await Promise.all(asked.map((r) => judge.grade(r, { slot: slot() })));
      expect(outcomes.every((o) => o.ok)).toBe(true);
      const rows = await database.prisma.judgeCall.findMany({
        where: { key: { in: asked.map((r) => requestKey(r)) } },
      });
      const refused = rows.find((row) => row.key === refusedKey)!;
      expect(refused).toMatchObject({ status: "error", costUsd: 0.004, claimedBy: null });
      expect(refused.error).toContain("could not be stored");
      expect(refused.error).toContain("refused by the test's trigger");
      const kept = rows.filter((row) => row.key !== refusedKey);
      expect(kept).toHaveLength(11);
      expect(kept.every((row) => row.status === "done" && row.claimedBy === null)).toBe(true);
      expect(kept.map((row) => (row.verdict as { reasoning: string }).reasoning)).toEqual(
        kept.map(() => "kept"),
      );
      // Every call, the refused one too, is the run's, paid: its cost is counted.
      expect(await database.prisma.runCall.count({ where: { runId, reused: false } })).toBe(12);
    } finally {
      await database.prisma.$executeRawUnsafe(`DROP TRIGGER refuse_verdict ON judge_calls`);
    }
  });

  it("claims left by a crash between claim and record are taken over in one batch; a live worker's are waited for", async () => {
    const asked = requests(6);
    const [deadLocal, ownLeftover, stale, failed, done, live] = asked.map((r) => requestKey(r));
    // A process of this host that has exited: what a worker killed after claiming leaves.
    const deadPid = spawnSync(process.execPath, ["-e", ""]).pid;
    const pending = (key: string, claimedBy: string, ageMs: number) => ({
      key: key!,
      status: "pending",
      claimedBy,
      claimedAt: new Date(Date.now() - ageMs),
      model: "claude-haiku-4-5",
      templateVersion: "rubric-v1",
    });
    await database.prisma.judgeCall.createMany({
      data: [
        pending(deadLocal!, `${os.hostname()}:${deadPid}`, 0),
        pending(ownLeftover!, "this-worker", 0),
        pending(stale!, "elsewhere:7", 120_000),
        { ...pending(failed!, "elsewhere:7", 0), status: "error", claimedBy: null },
        {
          ...pending(done!, "elsewhere:7", 0),
          status: "done",
          claimedBy: null,
          verdict: { reasoning: "stored", score: 0.3 },
          costUsd: 0.01,
        },
        pending(live!, "elsewhere:8", 0),
      ],
    });
    const inner = createFakeJudge(always({ score: 0.6, reasoning: "paid" }));
    let polls = 0;
    const judge = createCachedJudge({
      prisma: database.prisma,
      inner,
      owner: "this-worker",
      reuse: true,
      leaseMs: 60_000,
      // The live worker finishes its call while this one waits.
      sleep: async () => {
        if (++polls === 2)
          await database.prisma.judgeCall.update({
            where: { key: live },
            data: { status: "done", claimedBy: null, verdict: { reasoning: "theirs", score: 0.5 } },
          });
      },
    });
    const outcomes = await Promise.all(asked.map((r) => judge.grade(r, { slot: slot() })));
    expect(inner.requests.map((r) => requestKey(r)).sort()).toEqual(
      [deadLocal, ownLeftover, stale, failed].sort(),
    );
    expect(outcomes.map((o) => o.ok && o.verdict.reasoning)).toEqual([
      "paid",
      "paid",
      "paid",
      "paid",
      "stored",
      "theirs",
    ]);
    expect(polls).toBeGreaterThanOrEqual(2);
    expect(
      await database.prisma.judgeCall.count({
        where: { key: { in: asked.map((r) => requestKey(r)) }, status: { not: "done" } },
      }),
    ).toBe(0);
  });
});
