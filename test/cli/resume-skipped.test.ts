import type { ChildProcess } from "node:child_process";
import { describe, expect, it } from "vitest";
import { useTestDatabase } from "../support/test-database";
import {
  makeWorkspace,
  startFakeJudge,
  yaml,
  heldAfter,
  spawnCli,
  type OnFinished,
} from "./cli-harness";

// `resume RUN_ID` after Ctrl-C or a cancel: the results the run stored as
// skipped (interrupted) or skipped (cancelled) are graded, the graded ones are
// not paid again, and the run ends complete and green.

const database = useTestDatabase();

function suite(evals: number, name: string): string {
  const lines = ["evals:"];
  for (let i = 1; i <= evals; i++)
    lines.push(
      `  - name: ${name} ${i}`,
      `    prompt: "Question ${i}?"`,
      `    response: "Answer ${name} ${i}."`,
      `    rubric: "Answers question ${i} (${name})."`,
      `    threshold: 0.5`,
    );
  return yaml(...lines);
}

/**
 * A workspace with a six-eval suite and a judge that answers two calls and
 * holds the rest; `stop` starts `eval`, stops it with `how` once two calls are
 * in flight, and returns the stopped run's id, exit code and JSON report.
 */
async function heldJudge(onFinished: OnFinished, name: string) {
  const ws = await makeWorkspace(onFinished);
  const held = heldAfter(2);
  onFinished(() => held.release());
  const judge = await startFakeJudge(onFinished, { respond: held.respond });
  const file = await ws.write(`${name}.yaml`, suite(6, name));
  const env = { ...judge.env, DATABASE_URL: database.url };
  const stop = async (input: { how: (runId: string, child: ChildProcess) => Promise<void> }) => {
    const { child, stdout, stderr, exited } = spawnCli({
      cwd: ws.dir,
      args: ["eval", "--config", file, "--concurrency", "2", "--reporter", "json"],
      env,
    });
    for (let i = 0; i < 800 && judge.api.inFlight() < 2; i++)
      await new Promise((r) => setTimeout(r, 25));
    const runId = /Storing run ([0-9a-f-]{36})/.exec(stderr())?.[1];
    expect(runId, stderr()).toBeDefined();
    await input.how(runId!, child);
    held.release();
    const code = await exited;
    return {
      runId: runId!,
      code,
      stderr: stderr(),
      report: JSON.parse(stdout()) as {
        summary: {
          passed: number;
          judgeErrors: number;
          skipped: number;
          skippedBy?: Record<string, number>;
        };
      },
    };
  };
  return { ws, judge, env, stop };
}

describe("resume after Ctrl-C or a cancel", () => {
  it(
    "grades the results skipped (interrupted) by Ctrl-C; the run ends completed, exit 0",
    { timeout: 120_000 },
    async ({ onTestFinished }) => {
      const { ws, judge, env, stop } = await heldJudge(onTestFinished, "ctrlc");
      const stopped = await stop({
        how: async (_runId, child) => {
          child.kill("SIGINT");
          await new Promise((r) => setTimeout(r, 500));
        },
      });
      expect(stopped.code).toBe(1);
      // It says how to finish the run.
      expect(stopped.stderr).toContain(
        `Interrupted: \`rubric-studio resume ${stopped.runId}\` grades what Ctrl-C left in this same run`,
      );
      // The two calls in flight at Ctrl-C were cut off, not misjudged: interrupted, like the two never started.
      expect(stopped.report.summary).toMatchObject({
        passed: 2,
        judgeErrors: 0,
        skipped: 4,
        skippedBy: { interrupted: 4 },
      });
      const paidBefore = judge.api.requests.length;

      const resumed = await ws.cli(["resume", stopped.runId, "--reporter", "json"], env);
      expect(resumed.code, resumed.stderr + resumed.stdout).toBe(0);
      expect(resumed.stderr).toMatch(/grading \d+ that (was|were) interrupted or cancelled/);
      const report = JSON.parse(resumed.stdout);
      expect(report.summary).toMatchObject({ total: 6, passed: 6, skipped: 0 });
      // The two calls answered before Ctrl-C are not paid again.
      expect(judge.api.requests.length - paidBefore).toBe(6 - 2);
      const run = await database.prisma.run.findUnique({ where: { id: stopped.runId } });
      expect(run).toMatchObject({ status: "completed", passed: 6, skipped: 0 });
    },
  );

  it(
    "grades the results skipped (cancelled) by `rubric-studio cancel`, and the old cancel request does not stop the resumed run",
    { timeout: 120_000 },
    async ({ onTestFinished }) => {
      const { ws, env, stop } = await heldJudge(onTestFinished, "cancelled");
      const stopped = await stop({
        how: async (runId) => {
          expect((await ws.cli(["cancel", runId], env)).code).toBe(0);
          await new Promise((r) => setTimeout(r, 1500));
        },
      });
      expect(stopped.code).toBe(1);
      expect(stopped.report.summary.skippedBy?.cancelled).toBeGreaterThan(0);
      expect(stopped.stderr).toContain(`Cancelled: \`rubric-studio resume ${stopped.runId}\``);

      const resumed = await ws.cli(["resume", stopped.runId, "--reporter", "json"], env);
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(JSON.parse(resumed.stdout).summary).toMatchObject({ total: 6, passed: 6, skipped: 0 });
      expect(await database.prisma.run.findUnique({ where: { id: stopped.runId } })).toMatchObject({
        status: "completed",
        passed: 6,
        skipped: 0,
        cancelRequested: false,
      });
      expect((await ws.cli(["report", stopped.runId], env)).code).toBe(0);
    },
  );
});
