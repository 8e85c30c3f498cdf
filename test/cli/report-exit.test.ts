import { describe, expect, it } from "vitest";
import { useTestDatabase } from "../support/test-database";
import { makeWorkspace, startFakeJudge, yaml, candidateOf } from "./cli-harness";

// `report RUN_ID` exits as the run did: a CI job that renders a stored run
// (a --detach run, or a gated one) must not turn a failed gate green.

const database = useTestDatabase();

function suite(name: string): string {
  return yaml(
    "evals:",
    ...[1, 2].flatMap((i) => [
      `  - name: ${name} ${i}`,
      `    prompt: "Question ${i}?"`,
      `    response: "Answer number ${i}."`,
      `    rubric: "Answers question ${i} (${name})."`,
      `    threshold: 0.5`,
    ]),
  );
}

describe("report RUN_ID", () => {
  it(
    "exits 1 for a run that failed its --baseline gate (every eval passed, one score dropped), and shows the same regression",
    { timeout: 120_000 },
    async ({ onTestFinished }) => {
      const ws = await makeWorkspace(onTestFinished);
      let scores: Record<string, number> = { "Answer number 1.": 0.9, "Answer number 2.": 0.9 };
      const judge = await startFakeJudge(onTestFinished, {
        respond: (r) => ({ verdict: { reasoning: "ok", score: scores[candidateOf(r)] ?? 0 } }),
      });
      await ws.write("gated.yaml", suite("gated"));
      const env = { ...judge.env, DATABASE_URL: database.url };

      expect((await ws.cli(["eval", "--config", "gated.yaml"], env)).code).toBe(0);
      scores = { "Answer number 1.": 0.7, "Answer number 2.": 0.9 };
      const gated = await ws.cli(
        ["eval", "--config", "gated.yaml", "--no-cache", "--baseline", "latest", "--no-color"],
        env,
      );
      expect(gated.code).toBe(1);
      expect(gated.stdout).toMatch(/2 cells: 2 passed, 0 failed/);
      const runId = /Storing run ([0-9a-f-]{36})/.exec(gated.stderr)![1]!;

      const report = await ws.cli(["report", runId, "--no-color"], env);
      expect(report.code, report.stderr).toBe(1);
      expect(report.stdout).toMatch(/1 regression/);
      expect(report.stdout).toMatch(/regressed +gated 1 +0\.90 → 0\.70 \(-0\.20\)/);
    },
  );

  it(
    "exits 1 for a run with a failing eval and 0 for one where every eval passed",
    { timeout: 120_000 },
    async ({ onTestFinished }) => {
      const ws = await makeWorkspace(onTestFinished);
      const judge = await startFakeJudge(onTestFinished, {
        respond: (r) => ({
          verdict: { reasoning: "ok", score: candidateOf(r) === "Answer number 2." ? 0.2 : 0.9 },
        }),
      });
      await ws.write("mixed.yaml", suite("mixed"));
      const env = { ...judge.env, DATABASE_URL: database.url };
      const failing = await ws.cli(["eval", "--config", "mixed.yaml"], env);
      expect(failing.code).toBe(1);
      const failingId = /Storing run ([0-9a-f-]{36})/.exec(failing.stderr)![1]!;
      const report = await ws.cli(["report", failingId, "--reporter", "json"], env);
      expect(report.code).toBe(1);
      expect(JSON.parse(report.stdout).summary).toMatchObject({ passed: 1, failed: 1 });

      await ws.write("green.yaml", suite("green").replace("Answer number 2.", "Answer number 1."));
      const green = await ws.cli(["eval", "--config", "green.yaml"], env);
      expect(green.code).toBe(0);
      const greenId = /Storing run ([0-9a-f-]{36})/.exec(green.stderr)![1]!;
      expect((await ws.cli(["report", greenId], env)).code).toBe(0);
    },
  );
});
