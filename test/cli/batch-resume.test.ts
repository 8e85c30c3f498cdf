import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import type { Report } from "../../lib/engine/results/report";
import { CLI_BIN } from "../support/run-cli";
import { useTestDatabase } from "../support/test-database";
import { makeWorkspace, startFakeJudge, yaml } from "./cli-harness";

// `eval --batch` with run history: a batch still running when the process
// died is picked up by `resume` (its id is stored with the run), verdicts
// already in the judge cache are never submitted, and a queued batched run is
// graded by a worker through Message Batches.

const database = useTestDatabase();

// The suite's name is in every rubric: the judge cache is shared by the whole database.
function suite(evals: number, name: string): string {
  const lines = ["evals:"];
  for (let i = 1; i <= evals; i++) {
    lines.push(
      `  - name: ${name} ${i}`,
      `    response: "Answer number ${i}."`,
      "    judge: { jury: { size: 2 } }",
      `    rubric: "Answers question ${i} (${name})."`,
      "    threshold: 0.5",
    );
  }
  return yaml(...lines);
}

describe("eval --batch with run history", () => {
  it(
    "resume after a kill mid-batch waits for the stored batch: every custom_id billed once, no result lost",
    { timeout: 90_000 },
    async ({ onTestFinished }) => {
      const ws = await makeWorkspace(onTestFinished);
      const judge = await startFakeJudge(onTestFinished, {
        batches: { hold: true },
        respond: () => ({ verdict: { reasoning: "good", score: 0.8 } }),
      });
      await ws.write("suite.yaml", suite(4, "killed"));
      const env = { ...judge.env, DATABASE_URL: database.url };

      const child = spawn(
        process.execPath,
        [CLI_BIN, "eval", "--config", "suite.yaml", "--batch", "--poll-interval", "0.05"],
        { cwd: ws.dir, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] },
      );
      let stderr = "";
      child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
      const exited = new Promise((resolve) => child.once("exit", resolve));
      onTestFinished(() => void child.kill("SIGKILL"));
      for (let i = 0; i < 800 && !/batch msgbatch_\w+: in_progress/.test(stderr); i++)
        await new Promise((r) => setTimeout(r, 25));
      const runId = /Storing run ([0-9a-f-]{36})/.exec(stderr)?.[1];
      expect(runId, stderr).toBeDefined();
      expect(judge.api.batches).toHaveLength(1);
      const batchId = judge.api.batches[0]!.id;
      expect(
        await database.prisma.runBatch.findMany({ where: { runId: runId! }, select: { id: true } }),
      ).toEqual([{ id: batchId }]);
      child.kill("SIGKILL");
      await exited;
      expect(await database.prisma.evalResultRow.count({ where: { runId: runId! } })).toBe(0);

      judge.api.releaseBatches();
      const resumed = await ws.cli(["resume", runId!, "--reporter", "json"], env);
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(resumed.stderr).toContain(
        `batch ${batchId}: ended, 8 submitted, 8 succeeded, 0 errored, 0 expired`,
      );
      // Nothing was submitted again, and each request was billed once.
      expect(judge.api.batches).toHaveLength(1);
      expect(judge.api.batchBilled.size).toBe(8);
      expect([...judge.api.batchBilled.values()]).toEqual(Array(8).fill(1));
      const report = JSON.parse(resumed.stdout) as Report;
      expect(report.results).toHaveLength(4);
      expect(report.summary.passed).toBe(4);
      for (const call of report.results.flatMap((r) => r.calls))
        expect(call.batched?.batchId).toBe(batchId);
      expect((await database.prisma.run.findUnique({ where: { id: runId! } }))?.status).toBe(
        "completed",
      );
    },
  );

  it(
    "Ctrl-C mid-batch ends the process at once, the results interrupted; resume then reads the batch",
    { timeout: 90_000 },
    async ({ onTestFinished }) => {
      const ws = await makeWorkspace(onTestFinished);
      const judge = await startFakeJudge(onTestFinished, {
        batches: { hold: true },
        respond: () => ({ verdict: { reasoning: "good", score: 0.8 } }),
      });
      await ws.write("suite.yaml", suite(2, "interrupted"));
      const env = { ...judge.env, DATABASE_URL: database.url };
      const child = spawn(
        process.execPath,
        [
          CLI_BIN,
          "eval",
          "--config",
          "suite.yaml",
          "--batch",
          "--poll-interval",
          "0.05",
          "--reporter",
          "json",
        ],
        { cwd: ws.dir, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] },
      );
      let stderr = "";
      let stdout = "";
      child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
      child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
      const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
      onTestFinished(() => void child.kill("SIGKILL"));
      for (let i = 0; i < 800 && !/batch msgbatch_\w+: in_progress/.test(stderr); i++)
        await new Promise((r) => setTimeout(r, 25));
      child.kill("SIGINT");
      expect(await exited).toBe(1);
      const interrupted = JSON.parse(stdout) as Report;
      expect(interrupted.results.map((r) => r.status)).toEqual(["skipped", "skipped"]);
      expect(interrupted.results.map((r) => r.skipKind)).toEqual(["interrupted", "interrupted"]);

      judge.api.releaseBatches();
      const runId = /Storing run ([0-9a-f-]{36})/.exec(stderr)![1]!;
      expect(stderr).toContain(
        `Interrupted: the message batches go on; \`rubric-studio resume ${runId}\` waits for them and pays nothing twice`,
      );
      expect(await database.prisma.evalResultRow.count({ where: { runId } })).toBe(0);
      const resumed = await ws.cli(["resume", runId, "--reporter", "json"], env);
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(judge.api.batches).toHaveLength(1);
      expect([...judge.api.batchBilled.values()]).toEqual([1, 1, 1, 1]);
      expect((JSON.parse(resumed.stdout) as Report).summary.passed).toBe(2);
    },
  );

  it(
    "never submits a request whose verdict is in the judge cache",
    { timeout: 90_000 },
    async ({ onTestFinished }) => {
      const ws = await makeWorkspace(onTestFinished);
      const judge = await startFakeJudge(onTestFinished, {
        respond: () => ({ verdict: { reasoning: "good", score: 0.8 } }),
      });
      const env = { ...judge.env, DATABASE_URL: database.url };
      await ws.write("suite.yaml", suite(2, "cached"));
      const first = await ws.cli(["eval", "--config", "suite.yaml"], env);
      expect(first.code, first.stderr).toBe(0);
      expect(judge.api.requests).toHaveLength(4);

      await ws.write("suite.yaml", suite(3, "cached"));
      const second = await ws.cli(
        [
          "eval",
          "--config",
          "suite.yaml",
          "--reporter",
          "json",
          "--batch",
          "--poll-interval",
          "0.05",
        ],
        env,
      );
      expect(second.code, second.stderr).toBe(0);
      expect(second.stderr).toContain("Reused 4 judge verdicts from the cache");
      // Only the new eval's two jurors went into the batch.
      expect(judge.api.batches.map((b) => b.requests.length)).toEqual([2]);
      const report = JSON.parse(second.stdout) as Report;
      expect(
        report.results
          .find((r) => r.eval === "cached 3")
          ?.calls.every((c) => c.batched !== undefined),
      ).toBe(true);
      expect(
        report.results
          .find((r) => r.eval === "cached 1")
          ?.calls.every((c) => c.reused !== undefined && c.batched === undefined),
      ).toBe(true);
    },
  );

  it(
    "eval --queue --batch: the worker grades the run through Message Batches and stores the batch ids",
    { timeout: 90_000 },
    async ({ onTestFinished }) => {
      const ws = await makeWorkspace(onTestFinished);
      const judge = await startFakeJudge(onTestFinished, {
        respond: () => ({ verdict: { reasoning: "good", score: 0.8 } }),
      });
      await ws.write("suite.yaml", suite(3, "queued"));
      const run = await ws.cli(
        [
          "eval",
          "--config",
          "suite.yaml",
          "--queue",
          "--batch",
          "--poll-interval",
          "0.05",
          "--reporter",
          "json",
        ],
        { ...judge.env, DATABASE_URL: database.url },
      );
      expect(run.code, run.stderr).toBe(0);
      const report = JSON.parse(run.stdout) as Report;
      expect(report.summary.passed).toBe(3);
      expect(judge.api.requests.every((r) => r.customId !== undefined)).toBe(true);
      expect(judge.api.batches.flatMap((b) => b.requests)).toHaveLength(6);
      const runId = /Queued run ([0-9a-f-]{36})/.exec(run.stderr)![1]!;
      expect(
        (await database.prisma.runBatch.findMany({ where: { runId } })).map((b) => b.id).sort(),
      ).toEqual(judge.api.batches.map((b) => b.id).sort());
      for (const call of report.results.flatMap((r) => r.calls)) expect(call.batched).toBeDefined();
    },
  );
});
