import { describe, expect, it } from "vitest";
import { useTestDatabase } from "../support/test-database";
import { makeWorkspace, startFakeJudge, yaml } from "./cli-harness";

// `report latest` renders the newest stored run, as `--baseline latest` names
// the newest run to compare with; it is not read as a file called "latest".

const database = useTestDatabase();

const suite = (name: string) =>
  yaml(
    "evals:",
    `  - name: ${name}`,
    '    response: "The total is $120."',
    '    rubric: "States the total."',
  );

describe("report latest", () => {
  it(
    "says there is no stored run yet, then renders the newest one (of any suite)",
    { timeout: 120_000 },
    async ({ onTestFinished }) => {
      const ws = await makeWorkspace(onTestFinished);
      const judge = await startFakeJudge(onTestFinished, {
        respond: () => ({ verdict: { reasoning: "ok", score: 0.9 } }),
      });
      const env = { ...judge.env, DATABASE_URL: database.url };

      const empty = await ws.cli(["report", "latest"], env);
      expect(empty.code).toBe(2);
      expect(empty.stderr).toContain(
        "error: no stored run yet: `eval --store` (or DATABASE_URL) keeps runs for `report`",
      );
      expect(empty.stderr).not.toContain("cannot read the report");

      await ws.write("first.yaml", suite("first total"));
      await ws.write("second.yaml", suite("second total"));
      expect((await ws.cli(["eval", "--config", "first.yaml"], env)).code).toBe(0);
      const second = await ws.cli(["eval", "--config", "second.yaml"], env);
      const runId = /Storing run ([0-9a-f-]{36})/.exec(second.stderr)![1]!;

      const latest = await ws.cli(["report", "latest", "--reporter", "json"], env);
      expect(latest.code, latest.stderr).toBe(0);
      const report = JSON.parse(latest.stdout) as { runId: string; results: { name: string }[] };
      expect(report.runId).toBe(runId);
      expect(report.results.map((r) => r.name)).toEqual(["second total"]);
    },
  );

  it(
    "gives a run one duration: what eval printed is what report RUN_ID prints",
    { timeout: 60_000 },
    async ({ onTestFinished }) => {
      const ws = await makeWorkspace(onTestFinished);
      // Slow enough that the time between storing the run and the engine's start would show.
      const judge = await startFakeJudge(onTestFinished, {
        latencyMs: 300,
        respond: () => ({ verdict: { reasoning: "ok", score: 0.9 } }),
      });
      const env = { ...judge.env, DATABASE_URL: database.url };
      await ws.write("timed.yaml", suite("timed total"));
      const ran = await ws.cli(["eval", "--config", "timed.yaml", "--reporter", "json"], env);
      expect(ran.code, ran.stderr).toBe(0);
      const times = (stdout: string) => {
        const { startedAt, finishedAt, durationMs } = JSON.parse(stdout) as Record<string, unknown>;
        return { startedAt, finishedAt, durationMs };
      };
      const printed = times(ran.stdout);
      const runId = (JSON.parse(ran.stdout) as { runId: string }).runId;
      const reported = await ws.cli(["report", runId, "--reporter", "json"], env);
      expect(times(reported.stdout)).toEqual(printed);
      expect(printed.durationMs).toBeGreaterThan(200);
    },
  );

  it("a file that is not there says what report takes", async ({ onTestFinished }) => {
    const ws = await makeWorkspace(onTestFinished);
    const missing = await ws.cli(["report", "lastest"]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(
      "lastest:1:1: error: cannot read the report: file not found (report takes a RUN_ID, latest for the newest stored run, or a review file)",
    );
  });
});
