import { describe, expect, it } from "vitest";
import { createCachedJudge } from "../../lib/store/cached-judge";
import type { JudgeRequest, JudgeSlot } from "../../lib/engine/ports/judge-port";
import { always, createFakeJudge } from "../support/fake-judge";
import { useTestDatabase } from "../support/test-database";

const database = useTestDatabase();

let counter = 0;
function request(overrides: Partial<JudgeRequest> = {}): JudgeRequest {
  counter++;
  return {
    model: "claude-haiku-4-5",
    maxTokens: 1024,
    templateVersion: "rubric-v1",
    stablePrompt: `## Criterion: states the version ${counter}`,
    candidatePrompt: "<candidate_response>2.3.0 added rate limits</candidate_response>",
    taskPrompt: "Grade the criterion now.",
    verdict: "score",
    sample: 1,
    ...overrides,
  };
}

// A slot that counts how often a waiting call gave it back.
function slot(): JudgeSlot & { releases: number } {
  const s = { releases: 0, release: () => void s.releases++, acquire: async () => {} };
  return s;
}

describe("the judge cache", () => {
  it("pays for a request once and reuses the stored verdict, with what it saved", async () => {
    const inner = createFakeJudge(always({ score: 0.8, reasoning: "fine", costUsd: 0.002 }));
    const judge = createCachedJudge({
      prisma: database.prisma,
      inner,
      owner: "test",
      reuse: true,
      leaseMs: 60_000,
    });
    const r = request();
    const first = await judge.grade(r, { slot: slot() });
    const second = await judge.grade({ ...r }, { slot: slot() });
    expect(inner.requests).toHaveLength(1);
    expect(first.ok && second.ok).toBe(true);
    if (!second.ok) return;
    expect(second.verdict).toEqual({ reasoning: "fine", score: 0.8 });
    expect(second.call.reused).toEqual({ savedUsd: 0.002 });
    expect(second.call.costUsd).toBe(0);
    expect(
      await database.prisma.judgeCall.count({ where: { status: "done" } }),
    ).toBeGreaterThanOrEqual(1);
  });

  it("keys on everything that decides the answer: another model, prompt or juror is another call", async () => {
    const inner = createFakeJudge(always({ score: 0.5 }));
    const judge = createCachedJudge({
      prisma: database.prisma,
      inner,
      owner: "test",
      reuse: true,
      leaseMs: 60_000,
    });
    const r = request();
    for (const variant of [
      r,
      { ...r, model: "claude-sonnet-4-6" },
      { ...r, candidatePrompt: "other" },
      { ...r, sample: 2 },
      { ...r, verdict: "score_with_evidence" as const },
    ]) {
      await judge.grade(variant, { slot: slot() });
    }
    expect(inner.requests).toHaveLength(5);
  });

  it("asks afresh with --no-cache, and does not cache errors", async () => {
    const r = request();
    const ok = createFakeJudge(always({ score: 0.9 }));
    await createCachedJudge({
      prisma: database.prisma,
      inner: ok,
      owner: "a",
      reuse: true,
      leaseMs: 60_000,
    }).grade(r, { slot: slot() });
    const fresh = createFakeJudge(always({ score: 0.1 }));
    const outcome = await createCachedJudge({
      prisma: database.prisma,
      inner: fresh,
      owner: "a",
      reuse: false,
      leaseMs: 60_000,
    }).grade(r, { slot: slot() });
    expect(fresh.requests).toHaveLength(1);
    expect(outcome.ok && outcome.verdict).toMatchObject({ score: 0.1 });

    const failing = request();
    const broken = createFakeJudge(always({ error: "overloaded" }));
    await createCachedJudge({
      prisma: database.prisma,
      inner: broken,
      owner: "a",
      reuse: true,
      leaseMs: 60_000,
    }).grade(failing, { slot: slot() });
    const retry = createFakeJudge(always({ score: 1 }));
    const again = await createCachedJudge({
      prisma: database.prisma,
      inner: retry,
      owner: "a",
      reuse: true,
      leaseMs: 60_000,
    }).grade(failing, { slot: slot() });
    expect(retry.requests).toHaveLength(1);
    expect(again.ok).toBe(true);
  });

  it("lets two workers asking the same thing at once pay once; the waiter gives its slot back", async () => {
    const inner = createFakeJudge(always({ score: 0.7, delayMs: 300 }));
    const a = createCachedJudge({
      prisma: database.prisma,
      inner,
      owner: "worker-a",
      reuse: true,
      leaseMs: 60_000,
      pollMs: 20,
    });
    const b = createCachedJudge({
      prisma: database.prisma,
      inner,
      owner: "worker-b",
      reuse: true,
      leaseMs: 60_000,
      pollMs: 20,
    });
    const r = request();
    const waiting = slot();
    const [x, y] = await Promise.all([
      a.grade(r, { slot: slot() }),
      new Promise((res) => setTimeout(res, 50)).then(() => b.grade(r, { slot: waiting })),
    ]);
    expect(inner.requests).toHaveLength(1);
    expect(x.ok && y.ok).toBe(true);
    expect(waiting.releases).toBeGreaterThan(0);
  });

  it("takes over a claim whose worker died (older than the lease)", async () => {
    const r = request();
    const { requestKey } = await import("../../lib/store/request-key");
    await database.prisma.judgeCall.create({
      data: {
        key: requestKey(r),
        status: "pending",
        claimedBy: "dead-worker",
        claimedAt: new Date(Date.now() - 10_000),
        model: r.model,
        templateVersion: r.templateVersion,
      },
    });
    const inner = createFakeJudge(always({ score: 0.6 }));
    const outcome = await createCachedJudge({
      prisma: database.prisma,
      inner,
      owner: "alive",
      reuse: true,
      leaseMs: 1_000,
    }).grade(r, { slot: slot() });
    expect(inner.requests).toHaveLength(1);
    expect(outcome.ok).toBe(true);
  });

  it("links every call to its run, marking which were reused", async () => {
    const suite = await database.prisma.suite.create({ data: { name: `s${counter}` } });
    const version = await database.prisma.suiteVersion.create({
      data: { suiteId: suite.id, contentHash: "h", yaml: "evals: []" },
    });
    const run = await database.prisma.run.create({
      data: {
        suiteId: suite.id,
        suiteVersionId: version.id,
        status: "running",
        startedBy: "cli",
        host: "h",
        config: {},
      },
    });
    const inner = createFakeJudge(always({ score: 0.6 }));
    const r = request();
    await createCachedJudge({
      prisma: database.prisma,
      inner,
      owner: "a",
      reuse: true,
      leaseMs: 60_000,
    }).grade(r, { slot: slot() });
    await createCachedJudge({
      prisma: database.prisma,
      inner,
      owner: "a",
      reuse: true,
      leaseMs: 60_000,
      runId: run.id,
    }).grade(r, { slot: slot() });
    const links = await database.prisma.runCall.findMany({ where: { runId: run.id } });
    expect(links).toHaveLength(1);
    expect(links[0]!.reused).toBe(true);
  });
});
