import { describe, expect, it } from "vitest";
import { useTestDatabase } from "../support/test-database";
import {
  makeWorkspace,
  startFakeJudge,
  startWorkerProcess,
  yaml,
  candidateOf,
  heldAfter,
  type WorkerProcess,
} from "./cli-harness";

// Distributed grading through pg-boss: worker processes share queued runs.

const database = useTestDatabase();

type Worker = WorkerProcess;
const startWorker = startWorkerProcess;

async function waitForStatus(runId: string, timeoutMs: number): Promise<string | undefined> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const run = await database.prisma.run.findUnique({
      where: { id: runId },
      select: { status: true },
    });
    if (run && (run.status === "completed" || run.status === "cancelled")) return run.status;
    if (Date.now() > deadline) return run?.status;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function criteriaSuite(evals: number): string {
  const lines = ["evals:"];
  for (let i = 1; i <= evals; i++) {
    lines.push(
      `  - name: eval ${i}`,
      `    response: "Response ${i}."`,
      "    rubric:",
      "      criteria:",
    );
    for (const c of ["accurate", "complete", "polite", "brief"])
      lines.push(`        - { name: ${c}, description: "The answer is ${c}." }`);
  }
  return yaml(...lines);
}

describe("rubric-studio worker", () => {
  it("two workers share one queued run of 200 judge calls, and each call runs exactly once", async ({
    onTestFinished,
  }) => {
    const ws = await makeWorkspace(onTestFinished);
    const judge = await startFakeJudge(onTestFinished, {
      latencyMs: 30,
      respond: () => ({ verdict: { reasoning: "ok", score: 0.9 } }),
    });
    const env = { ...judge.env, DATABASE_URL: database.url };
    await ws.write("shared.yaml", criteriaSuite(50));
    const [a, b] = await Promise.all([
      startWorker({ cwd: ws.dir, env, onFinished: onTestFinished }),
      startWorker({ cwd: ws.dir, env, onFinished: onTestFinished }),
    ]);

    const queued = await ws.cli(["eval", "--config", "shared.yaml", "--queue", "--detach"], env);
    expect(queued.code, queued.stderr).toBe(0);
    const runId = queued.stdout.trim();
    expect(queued.stderr).toContain(`Queued run ${runId}: 50 cells in 9 jobs`);
    expect(await waitForStatus(runId, 90_000)).toBe("completed");

    const bodies = judge.api.requests.map((r) => `${r.system}\n${r.user}`);
    expect(bodies).toHaveLength(200);
    expect(new Set(bodies).size).toBe(200);
    expect(await database.prisma.evalResultRow.count({ where: { runId } })).toBe(50);
    const run = await database.prisma.run.findUnique({ where: { id: runId } });
    expect(run).toMatchObject({ passed: 50, judgeCalls: 200 });
    const gradedBy = (w: Worker) =>
      (w.stderr().match(new RegExp(`run ${runId}: passed`, "g")) ?? []).length;
    expect(gradedBy(a) + gradedBy(b)).toBe(50);
    expect(gradedBy(a)).toBeGreaterThan(0);
    expect(gradedBy(b)).toBeGreaterThan(0);

    const report = await ws.cli(["report", runId, "--reporter", "json"], env);
    expect(report.code).toBe(0);
    expect(JSON.parse(report.stdout).summary).toMatchObject({ total: 50, passed: 50 });
  }, 120_000);

  it("a worker killed mid-run has its jobs retried by another: nothing missing or duplicated, at most the in-flight calls re-paid", async ({
    onTestFinished,
  }) => {
    const ws = await makeWorkspace(onTestFinished);
    const held = heldAfter(6);
    onTestFinished(() => held.release());
    const judge = await startFakeJudge(onTestFinished, { respond: held.respond });
    const env = { ...judge.env, DATABASE_URL: database.url };
    const lines = ["evals:"];
    for (let i = 1; i <= 24; i++)
      lines.push(
        `  - name: crash ${i}`,
        `    response: "Crash answer ${i}."`,
        `    rubric: "Answers ${i}."`,
      );
    await ws.write("crash.yaml", yaml(...lines));

    const first = await startWorker({
      cwd: ws.dir,
      env,
      onFinished: onTestFinished,
      concurrency: 2,
    });
    const queued = await ws.cli(["eval", "--config", "crash.yaml", "--queue", "--detach"], env);
    const runId = queued.stdout.trim();
    // Six results are stored and the worker's two calls are held in flight: kill it there.
    for (
      let i = 0;
      i < 800 &&
      ((await database.prisma.evalResultRow.count({ where: { runId } })) < 6 ||
        judge.api.inFlight() < 2);
      i++
    )
      await new Promise((r) => setTimeout(r, 25));
    const inFlightAtKill = judge.api.inFlight();
    first.child.kill("SIGKILL");
    await new Promise((resolve) => first.child.once("exit", resolve));
    held.release();
    const before = judge.api.requests.length;
    expect(inFlightAtKill).toBe(2);
    const storedBefore = await database.prisma.evalResultRow.count({ where: { runId } });
    expect(storedBefore).toBeLessThan(24);

    await startWorker({ cwd: ws.dir, env, onFinished: onTestFinished, concurrency: 2 });
    expect(await waitForStatus(runId, 90_000)).toBe("completed");
    const rows = await database.prisma.evalResultRow.findMany({
      where: { runId },
      select: { resultKey: true },
    });
    expect(rows).toHaveLength(24);
    expect(new Set(rows.map((r) => r.resultKey)).size).toBe(24);
    const firstPhase = new Set(judge.api.requests.slice(0, before).map((r) => candidateOf(r)));
    const repaid = judge.api.requests.slice(before).filter((r) => firstPhase.has(candidateOf(r)));
    expect(repaid.length).toBeLessThanOrEqual(inFlightAtKill);
    expect(new Set(judge.api.requests.map((r) => candidateOf(r))).size).toBe(24);
  }, 120_000);
});
