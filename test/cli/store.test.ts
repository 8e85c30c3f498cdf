import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { CLI_BIN } from "../support/run-cli";
import { useTestDatabase } from "../support/test-database";
import { makeWorkspace, startFakeJudge, yaml, candidateOf, heldAfter } from "./cli-harness";

// Run history from the command line, against a real database (PGlite by
// default, Postgres 15 in CI through TEST_DATABASE_URL) and the real SDK over
// HTTP against the stand-in Messages API.

const database = useTestDatabase();

// The rubric names the suite: the judge cache is shared by every suite in a
// database, so identical texts would be (correctly) reused across tests.
function suite(evals: number, name = "answer"): string {
  const lines = ["evals:"];
  for (let i = 1; i <= evals; i++) {
    lines.push(
      `  - name: ${name} ${i}`,
      `    prompt: "Question ${i}?"`,
      `    response: "Answer number ${i}."`,
      `    rubric: "Answers question ${i} (${name})."`,
      `    threshold: 0.5`,
    );
  }
  return yaml(...lines);
}

describe("eval --store", () => {
  it(
    "stores the run; a rerun of the unchanged suite makes 0 judge calls and says what it reused; --no-cache pays again",
    { timeout: 120_000 },
    async ({ onTestFinished }) => {
      const ws = await makeWorkspace(onTestFinished);
      const judge = await startFakeJudge(onTestFinished, {
        respond: () => ({ verdict: { reasoning: "ok", score: 0.9 } }),
      });
      await ws.write("rerun.yaml", suite(3, "rerun"));
      const env = { ...judge.env, DATABASE_URL: database.url };

      const first = await ws.cli(["eval", "--config", "rerun.yaml"], env);
      expect(first.code, first.stderr).toBe(0);
      expect(first.stderr).toMatch(/Storing run [0-9a-f-]{36}/);
      expect(judge.api.requests).toHaveLength(3);

      const second = await ws.cli(["eval", "--config", "rerun.yaml", "--reporter", "json"], env);
      expect(second.code, second.stderr).toBe(0);
      expect(judge.api.requests).toHaveLength(3);
      expect(second.stderr).toContain("Reused 3 judge verdicts from the cache");
      const report = JSON.parse(second.stdout);
      expect(report.summary.judgeCalls).toBe(0);
      expect(report.summary.reused.calls).toBe(3);
      expect(report.results.map((r: { status: string }) => r.status)).toEqual([
        "passed",
        "passed",
        "passed",
      ]);

      const third = await ws.cli(["eval", "--config", "rerun.yaml", "--no-cache"], env);
      expect(third.code).toBe(0);
      expect(judge.api.requests).toHaveLength(6);

      const runs = await database.prisma.run.findMany({
        where: { suite: { name: "rerun.yaml" } },
        orderBy: { createdAt: "asc" },
      });
      expect(runs.map((r) => [r.status, r.passed, r.judgeCalls, r.reusedCalls])).toEqual([
        ["completed", 3, 3, 0],
        ["completed", 3, 0, 3],
        ["completed", 3, 3, 0],
      ]);
      expect(
        await database.prisma.suiteVersion.count({ where: { suite: { name: "rerun.yaml" } } }),
      ).toBe(1);
    },
  );

  it(
    "gates on a score drop against --baseline latest, and names what newly fails",
    { timeout: 120_000 },
    async ({ onTestFinished }) => {
      const ws = await makeWorkspace(onTestFinished);
      let scores: Record<string, number> = {
        "Answer number 1.": 0.9,
        "Answer number 2.": 0.9,
        "Answer number 3.": 0.9,
      };
      const judge = await startFakeJudge(onTestFinished, {
        respond: (r) => ({ verdict: { reasoning: "ok", score: scores[candidateOf(r)] ?? 0 } }),
      });
      await ws.write("gate.yaml", suite(3, "gate"));
      const env = { ...judge.env, DATABASE_URL: database.url };

      const none = await ws.cli(["eval", "--config", "gate.yaml", "--baseline", "latest"], env);
      expect(none.code).toBe(2);
      expect(none.stderr).toContain('no finished run of "gate.yaml" to compare with yet');

      expect((await ws.cli(["eval", "--config", "gate.yaml"], env)).code).toBe(0);
      scores = { "Answer number 1.": 0.8, "Answer number 2.": 0.3, "Answer number 3.": 0.88 };
      const dropped = await ws.cli(
        [
          "eval",
          "--config",
          "gate.yaml",
          "--no-cache",
          "--baseline",
          "latest",
          "--max-drop",
          "0.05",
        ],
        env,
      );
      expect(dropped.code).toBe(1);
      expect(dropped.stdout).toMatch(/2 regressions, 1 newly failing, 0 newly passing/);
      expect(dropped.stdout).toMatch(/regressed +gate 1 +0\.90 → 0\.80 \(-0\.10\)/);
      expect(dropped.stdout).toMatch(/newly failing +gate 2 +0\.90 → 0\.30/);
      expect(dropped.stdout).not.toMatch(/regressed +gate 3/);

      scores = { "Answer number 1.": 0.85, "Answer number 2.": 0.9, "Answer number 3.": 0.9 };
      const within = await ws.cli(
        [
          "eval",
          "--config",
          "gate.yaml",
          "--no-cache",
          "--baseline",
          "latest",
          "--max-drop",
          "0.05",
          "--reporter",
          "json",
        ],
        env,
      );
      expect(within.code, within.stdout).toBe(0);
      const report = JSON.parse(within.stdout);
      expect(report.baseline.regressions).toBe(0);
      expect(report.baseline.newlyPassing).toBe(1);
    },
  );
});

describe("resume", () => {
  it("finishes a run whose process was killed: no result missing or duplicated, re-paying at most the calls in flight", async ({
    onTestFinished,
  }) => {
    const ws = await makeWorkspace(onTestFinished);
    const held = heldAfter(6);
    onTestFinished(() => held.release());
    const judge = await startFakeJudge(onTestFinished, { respond: held.respond });
    await ws.write("crash.yaml", suite(16, "crash"));
    const env: NodeJS.ProcessEnv = { ...process.env, ...judge.env, DATABASE_URL: database.url };

    const child = spawn(
      process.execPath,
      [CLI_BIN, "eval", "--config", "crash.yaml", "--concurrency", "3"],
      { cwd: ws.dir, env, stdio: ["ignore", "pipe", "pipe"] },
    );
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const runId = await new Promise<string>((resolve, reject) => {
      const timer = setInterval(() => {
        const id = /Storing run ([0-9a-f-]{36})/.exec(stderr)?.[1];
        if (id) {
          clearInterval(timer);
          resolve(id);
        }
      }, 20);
      child.once("exit", () => reject(new Error(`CLI exited before storing: ${stderr}`)));
    });
    // Six calls are answered and three held in flight: kill the process once what was answered is
    // stored. Results are stored in plan order, so when a held call is an earlier cell's (calls
    // arrive in any order at concurrency 3) fewer than six are: wait until the count holds still.
    const deadline = Date.now() + 40_000;
    let stored = -1;
    let still = Date.now();
    while (Date.now() < deadline) {
      const now = await database.prisma.evalResultRow.count({ where: { runId } });
      if (now !== stored) [stored, still] = [now, Date.now()];
      if (stored > 0 && judge.api.inFlight() === 3 && Date.now() - still > 1_000) break;
      await new Promise((r) => setTimeout(r, 25));
    }
    const inFlightAtKill = judge.api.inFlight();
    child.kill("SIGKILL");
    await new Promise((resolve) => child.once("exit", resolve));
    held.release();
    const before = judge.api.requests.length;
    expect(inFlightAtKill).toBe(3);
    const storedBefore = await database.prisma.evalResultRow.count({ where: { runId } });
    expect(storedBefore).toBeGreaterThan(0);
    expect(storedBefore).toBeLessThanOrEqual(6);
    expect((await database.prisma.run.findUnique({ where: { id: runId } }))?.status).toBe(
      "running",
    );

    const resumed = await ws.cli(["resume", runId, "--reporter", "json"], {
      ...judge.env,
      DATABASE_URL: database.url,
    });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toContain(
      `Resuming run ${runId}: ${storedBefore} of 16 results already stored`,
    );
    const report = JSON.parse(resumed.stdout);
    expect(report.results).toHaveLength(16);
    expect(new Set(report.results.map((r: { id: string }) => r.id)).size).toBe(16);

    const rows = await database.prisma.evalResultRow.findMany({
      where: { runId },
      select: { resultKey: true },
    });
    expect(rows).toHaveLength(16);
    const run = await database.prisma.run.findUnique({ where: { id: runId } });
    expect(run?.status).toBe("completed");
    expect(run?.passed).toBe(16);

    // Only requests that were in flight at the kill may have been paid twice.
    const firstPhase = new Set(judge.api.requests.slice(0, before).map((r) => candidateOf(r)));
    const repaid = judge.api.requests.slice(before).filter((r) => firstPhase.has(candidateOf(r)));
    expect(repaid.length).toBeLessThanOrEqual(inFlightAtKill);
    expect(judge.api.requests.length - before).toBeLessThanOrEqual(16 - storedBefore);
  }, 60_000);
});

describe("cancel", () => {
  it(
    "stops a running run from another process: no new judge calls, the rest reported skipped, the run marked cancelled",
    { timeout: 120_000 },
    async ({ onTestFinished }) => {
      const ws = await makeWorkspace(onTestFinished);
      const held = heldAfter(2);
      onTestFinished(() => held.release());
      const judge = await startFakeJudge(onTestFinished, { respond: held.respond });
      await ws.write("cancel.yaml", suite(12, "cancel"));
      const env = { ...judge.env, DATABASE_URL: database.url };

      const child = spawn(
        process.execPath,
        [CLI_BIN, "eval", "--config", "cancel.yaml", "--concurrency", "2", "--reporter", "json"],
        { cwd: ws.dir, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] },
      );
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
      const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
      for (let i = 0; i < 800 && judge.api.inFlight() < 2; i++)
        await new Promise((r) => setTimeout(r, 25));
      const runId = /Storing run ([0-9a-f-]{36})/.exec(stderr)?.[1];
      expect(runId).toBeDefined();

      const cancel = await ws.cli(["cancel", runId!], env);
      expect(cancel.code, cancel.stderr).toBe(0);
      await new Promise((r) => setTimeout(r, 1500)); // the run notices within a second
      held.release();
      expect(await exited).toBe(1);

      const report = JSON.parse(stdout);
      const statuses = report.results.map((r: { status: string }) => r.status);
      expect(statuses.filter((s: string) => s === "passed")).toHaveLength(4);
      expect(statuses.filter((s: string) => s === "skipped")).toHaveLength(8);
      // Skipped for the cancel, said once, never counted as a budget skip.
      expect(report.summary.skippedBy).toEqual({ cancelled: 8 });
      expect(report.results.find((r: { status: string }) => r.status === "skipped")).toMatchObject({
        skipKind: "cancelled",
        reason:
          "skipped (cancelled): the run was cancelled before all of this eval's judge calls could be made",
      });
      expect(stderr).not.toContain("budget");
      expect(judge.api.requests).toHaveLength(4);
      expect((await database.prisma.run.findUnique({ where: { id: runId! } }))?.status).toBe(
        "cancelled",
      );
    },
  );
});
