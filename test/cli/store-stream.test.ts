import path from "node:path";
import { describe, expect, it } from "vitest";
import { useTestDatabase } from "../support/test-database";
import { measuredCli, writeLines } from "../support/measure-cli";
import { item, REASONING, wrong } from "../support/big-items";
import { candidateOf, makeWorkspace, spawnCli, startFakeJudge, yaml } from "./cli-harness";

// `eval --store` and `resume` in flat memory (issue 20): results go to the store and the reports as
// they are graded, a resumed run reads only its stored results' keys and folds their figures page by
// page. Through the real CLI, against the stand-in Messages API and a real database (PGlite, or
// Postgres 15 with TEST_DATABASE_URL).

const database = useTestDatabase();

// The rubric names the test: the judge cache is shared by every run in the database.
const SUITE = (file: string, name: string) =>
  yaml(
    "datasets:",
    "  big:",
    `    file: ${file}`,
    "evals:",
    `  - name: ${name}`,
    "    candidates: { dataset: big }",
    `    rubric: "The answer is correct (${name})."`,
    "    threshold: 0.5",
  );

const verdictOf = (request: { user: string }) => ({
  verdict: { reasoning: REASONING, score: candidateOf(request).startsWith("WRONG") ? 0.1 : 0.9 },
});

async function runOf(runId: string) {
  return database.prisma.run.findUnique({ where: { id: runId } });
}

const summaryLine = (stdout: string) =>
  JSON.parse(stdout.trim().split("\n").at(-1)!) as {
    type: string;
    total: number;
    passed: number;
    failed: number;
    judgeCalls: number;
    reused?: { calls: number };
  };

describe("eval --store of a big dataset", () => {
  it("stores 6,000 results in a 160 MB heap, with a peak RSS under 450 MB, the counts as counted by hand", async ({
    onTestFinished,
  }) => {
    const ws = await makeWorkspace(onTestFinished);
    const judge = await startFakeJudge(onTestFinished, { respond: verdictOf });
    const items = 6_000;
    await writeLines(path.join(ws.dir, "items.jsonl"), items, item);
    await ws.write("suite.yaml", SUITE("items.jsonl", "flat"));
    const run = await measuredCli({
      args: ["eval", "--config", "suite.yaml", "--concurrency", "64", "--reporter", "ndjson"],
      cwd: ws.dir,
      // A run that kept its results (~90 MB of them) and its report would not fit.
      env: {
        ...process.env,
        ...judge.env,
        DATABASE_URL: database.url,
        NODE_OPTIONS: "--max-old-space-size=160",
      },
    });
    const failed = Math.floor(items / 3);
    // The code before this streamed ran out of its heap building the report at the end.
    expect(run.stderr).not.toMatch(/heap limit|out of memory/i);
    expect(run.code, run.stderr).toBe(1);
    const runId = /Storing run ([0-9a-f-]{36})/.exec(run.stderr)![1]!;
    expect(judge.api.requests).toHaveLength(items);
    expect(await runOf(runId)).toMatchObject({
      status: "completed",
      passed: items - failed,
      failed,
      judgeErrors: 0,
      skipped: 0,
      judgeCalls: items,
    });
    expect(await database.prisma.evalResultRow.count({ where: { runId } })).toBe(items);
    // The report written as the run went: every result, then the summary.
    expect(run.stdout.trim().split("\n")).toHaveLength(items + 2);
    expect(summaryLine(run.stdout)).toMatchObject({ total: items, passed: items - failed, failed });
    expect(run.peakMb).toBeGreaterThan(0);
    // Most of it is the database client's (a stored run of 30 results peaks at ~250 MB).
    expect(run.peakMb).toBeLessThan(450);
  }, 600_000);

  it("kill -9 at 60% and resume: pays only what was in flight, and reports what a run never killed reports", async ({
    onTestFinished,
  }) => {
    const ws = await makeWorkspace(onTestFinished);
    const judge = await startFakeJudge(onTestFinished, { respond: verdictOf });
    const items = 2_400;
    const concurrency = 16;
    await writeLines(path.join(ws.dir, "items.jsonl"), items, item);
    await ws.write("suite.yaml", SUITE("items.jsonl", "killed"));
    const env = { ...judge.env, DATABASE_URL: database.url };
    const cli = spawnCli({
      cwd: ws.dir,
      args: ["eval", "--config", "suite.yaml", "--concurrency", String(concurrency)],
      env,
    });
    let runId: string | undefined;
    for (let i = 0; i < 6_000 && !runId; i++) {
      runId = /Storing run ([0-9a-f-]{36})/.exec(cli.stderr())?.[1];
      await new Promise((r) => setTimeout(r, 10));
    }
    expect(runId, cli.stderr()).toBeDefined();
    // Killed once 60% of the results are stored.
    while ((await database.prisma.evalResultRow.count({ where: { runId } })) < items * 0.6)
      await new Promise((r) => setTimeout(r, 20));
    cli.child.kill("SIGKILL");
    await cli.exited;
    const callsAtKill = judge.api.requests.length;
    const storedAtKill = await database.prisma.evalResultRow.count({ where: { runId } });
    expect(storedAtKill).toBeLessThan(items);
    expect((await runOf(runId!))?.status).toBe("running");

    const resumed = await measuredCli({
      args: ["resume", runId!, "--reporter", "ndjson"],
      cwd: ws.dir,
      env: { ...process.env, ...env, NODE_OPTIONS: "--max-old-space-size=160" },
    });
    expect(resumed.code, resumed.stderr).toBe(1);
    expect(resumed.stderr).toContain(
      `Resuming run ${runId}: ${storedAtKill} of ${items.toLocaleString("en-US")} results already stored`,
    );
    // Every call made once, but those in flight at the kill (at most the concurrency).
    expect(callsAtKill).toBeLessThanOrEqual(items);
    expect(judge.api.requests.length).toBeGreaterThanOrEqual(items);
    expect(judge.api.requests.length).toBeLessThanOrEqual(items + concurrency);
    // The figures of a run never killed: every result, counted by hand, every call paid once.
    const failed = items / 3;
    const summary = summaryLine(resumed.stdout);
    expect(summary).toMatchObject({ total: items, passed: items - failed, failed });
    expect(summary.judgeCalls + (summary.reused?.calls ?? 0)).toBe(items);
    expect(resumed.stdout.trim().split("\n")).toHaveLength(items + 2);
    expect(await runOf(runId!)).toMatchObject({
      status: "completed",
      passed: items - failed,
      failed,
      judgeErrors: 0,
      skipped: 0,
    });
    expect(await database.prisma.evalResultRow.count({ where: { runId } })).toBe(items);
    expect(resumed.peakMb).toBeLessThan(450);
  }, 600_000);
});
