import { describe, expect, it } from "vitest";
import { useTestDatabase } from "../support/test-database";
import {
  makeWorkspace,
  startFakeJudge,
  startWorkerProcess as startWorker,
  yaml,
  heldAfter,
} from "./cli-harness";

// Cancel stops calls, not just jobs, for a queued run: one eval of 12 criteria
// × a jury of 3 (36 judge calls) in one job, graded by a worker process
// against the stand-in Messages API over HTTP. `rubric-studio cancel` from
// another process, or the worker's shutdown, stops the calls inside that
// running job: only the calls in flight are made.

const database = useTestDatabase();

const CRITERIA = 12;
const JURY = 3;

function juryEval(tag: string): string {
  const lines = [
    "evals:",
    `  - name: release notes (${tag})`,
    `    response: "Release 2.3 adds rate limits (${tag})."`,
    "    judge:",
    `      jury: { size: ${JURY} }`,
    "    rubric:",
    "      criteria:",
  ];
  for (let i = 1; i <= CRITERIA; i++)
    lines.push(`        - { name: c${i}, description: "Covers point ${i} (${tag})." }`);
  return yaml(...lines);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(check: () => boolean | Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await sleep(25);
  }
}

const statusOf = async (runId: string) =>
  (await database.prisma.run.findUnique({ where: { id: runId }, select: { status: true } }))
    ?.status;

describe("cancel and shutdown inside a queued run's job", () => {
  it(
    "`cancel RUN_ID` from another process stops the job's calls: 4 of 36 made, the eval skipped (cancelled), the run cancelled",
    { timeout: 120_000 },
    async ({ onTestFinished }) => {
      const ws = await makeWorkspace(onTestFinished);
      const held = heldAfter(0);
      onTestFinished(() => held.release());
      const judge = await startFakeJudge(onTestFinished, { respond: held.respond });
      const env = { ...judge.env, DATABASE_URL: database.url };
      await ws.write("cancel.yaml", juryEval("cancel"));
      await startWorker({ cwd: ws.dir, env, onFinished: onTestFinished, concurrency: 4 });

      const queued = await ws.cli(["eval", "--config", "cancel.yaml", "--queue", "--detach"], env);
      expect(queued.code, queued.stderr).toBe(0);
      const runId = queued.stdout.trim();
      await until(() => judge.api.inFlight() === 4, 60_000);

      const cancel = await ws.cli(["cancel", runId], env);
      expect(cancel.code, cancel.stderr).toBe(0);
      await sleep(1500); // the worker notices within half a second
      held.release();
      await until(async () => (await statusOf(runId)) === "cancelled", 60_000);

      expect(judge.api.requests).toHaveLength(4);
      const report = await ws.cli(["report", runId, "--reporter", "json"], env);
      const parsed = JSON.parse(report.stdout);
      expect(parsed.results[0]).toMatchObject({
        status: "skipped",
        skipKind: "cancelled",
        judgeCalls: 4,
      });
      expect(parsed.summary).toMatchObject({ passed: 0, skipped: 1, skippedBy: { cancelled: 1 } });
      const pretty = await ws.cli(["report", runId, "--no-color"], env);
      expect(pretty.stdout).toContain(
        "skipped (cancelled): the run was cancelled before all of this eval's judge calls could be made",
      );
      expect(pretty.stdout).toContain("1 skipped (cancelled)");
      expect(pretty.stdout).not.toContain("budget");
    },
  );

  it(
    "a worker's shutdown stops the job's calls at once and hands the cell back: another worker finishes it from the cache",
    { timeout: 120_000 },
    async ({ onTestFinished }) => {
      const ws = await makeWorkspace(onTestFinished);
      const held = heldAfter(0);
      onTestFinished(() => held.release());
      const judge = await startFakeJudge(onTestFinished, { respond: held.respond });
      const env = { ...judge.env, DATABASE_URL: database.url };
      await ws.write("shutdown.yaml", juryEval("shutdown"));
      const first = await startWorker({
        cwd: ws.dir,
        env,
        onFinished: onTestFinished,
        concurrency: 4,
      });

      const queued = await ws.cli(
        ["eval", "--config", "shutdown.yaml", "--queue", "--detach"],
        env,
      );
      expect(queued.code, queued.stderr).toBe(0);
      const runId = queued.stdout.trim();
      await until(() => judge.api.inFlight() === 4, 60_000);

      first.child.kill("SIGINT");
      await sleep(1000);
      held.release();
      expect(await first.exited).toBe(0);
      // Only the calls in flight were made, and the half-graded cell was not stored.
      expect(judge.api.requests).toHaveLength(4);
      expect(await database.prisma.evalResultRow.count({ where: { runId } })).toBe(0);
      expect(await statusOf(runId)).toBe("running");

      await startWorker({ cwd: ws.dir, env, onFinished: onTestFinished, concurrency: 4 });
      await until(async () => (await statusOf(runId)) === "completed", 60_000);
      // The 4 verdicts paid for before the shutdown came from the cache.
      expect(judge.api.requests).toHaveLength(CRITERIA * JURY);
      const run = await database.prisma.run.findUnique({ where: { id: runId } });
      expect(run).toMatchObject({ passed: 1, skipped: 0 });
    },
  );
});
