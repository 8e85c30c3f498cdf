import { describe, expect, it } from "vitest";
import { agentPrompt, isJudgeRequest } from "../support/agent-script";
import { useTestDatabase } from "../support/test-database";
import { makeWorkspace, spawnCli, startFakeJudge, yaml } from "./cli-harness";

// Generated candidates (issue 19) and `resume`: after Ctrl-C, the results
// stored as graded are not generated again (their model is not paid twice);
// only the interrupted ones are.

const database = useTestDatabase();

const PROMPTS = [1, 2, 3, 4, 5, 6].map((n) => `What is ${n} + ${n}?`);

describe("resume a run of generated candidates", () => {
  it(
    "regenerates only the results Ctrl-C interrupted",
    { timeout: 120_000 },
    async ({ onTestFinished }) => {
      const ws = await makeWorkspace(onTestFinished);
      let releaseJudge: () => void = () => {};
      const gate = new Promise<void>((resolve) => (releaseJudge = resolve));
      onTestFinished(() => releaseJudge());
      let judged = 0;
      const judge = await startFakeJudge(onTestFinished, {
        respond: async (request) => {
          if (!isJudgeRequest(request)) return { text: `Answer to ${agentPrompt(request)}` };
          // Two verdicts, then every judge call is held until the run is interrupted.
          if (judged++ >= 2) await gate;
          return { verdict: { reasoning: "ok", score: 0.9 } };
        },
      });
      await ws.write(
        "suite.yaml",
        yaml(
          "judge: { model: claude-sonnet-4-6 }",
          "evals:",
          "  - name: sums",
          '    rubric: "Gives the right number."',
          "    agent: { model: claude-haiku-4-5 }",
          `    matrix: { prompts: ${JSON.stringify(PROMPTS)} }`,
        ),
      );
      const env = { ...judge.env, DATABASE_URL: database.url };
      const { child, stdout, stderr, exited } = spawnCli({
        cwd: ws.dir,
        args: ["eval", "--config", "suite.yaml", "--concurrency", "2", "--reporter", "json"],
        env,
      });
      for (let i = 0; i < 800 && judge.api.inFlight() < 2; i++)
        await new Promise((r) => setTimeout(r, 25));
      const runId = /Storing run ([0-9a-f-]{36})/.exec(stderr())?.[1];
      expect(runId, stderr()).toBeDefined();
      child.kill("SIGINT");
      await new Promise((r) => setTimeout(r, 500));
      releaseJudge();
      expect(await exited).toBe(1);
      const stopped = JSON.parse(stdout()) as {
        summary: { passed: number; skipped: number };
        results: { status: string; cell: { prompt: string } }[];
      };
      expect(stopped.summary.passed).toBe(2);
      const passedPrompts = stopped.results
        .filter((r) => r.status === "passed")
        .map((r) => r.cell.prompt);

      const before = judge.api.requests.length;
      const resumed = await ws.cli(["resume", runId!, "--reporter", "json"], env);
      expect(resumed.code, resumed.stderr + resumed.stdout).toBe(0);
      expect(JSON.parse(resumed.stdout).summary).toMatchObject({ total: 6, passed: 6 });
      const regenerated = judge.api.requests
        .slice(before)
        .filter((r) => !isJudgeRequest(r))
        .map(agentPrompt);
      // The four interrupted results are generated again; the two graded ones are not.
      expect(regenerated).toHaveLength(4);
      for (const prompt of passedPrompts) expect(regenerated).not.toContain(prompt);
    },
  );
});
