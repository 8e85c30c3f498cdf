import { describe, expect, it } from "vitest";
import { useTestDatabase } from "../support/test-database";
import { makeWorkspace, startFakeJudge, yaml } from "./cli-harness";

// `regrade latest` names what `report latest` names (the newest stored run), whatever
// file --config reads: an edited copy of a suite, kept elsewhere, regrades its run.

const database = useTestDatabase();

const suite = (rubric: string) =>
  yaml(
    "judge: { model: claude-sonnet-4-6 }",
    "evals:",
    "  - name: fixed",
    '    prompt: "What is 2 + 2?"',
    '    response: "4 apples."',
    `    rubric: "${rubric}"`,
  );

describe("regrade latest", () => {
  it("regrades the run report latest finds, with an edited copy of its suite", async ({
    onTestFinished,
  }) => {
    const ws = await makeWorkspace(onTestFinished);
    const judge = await startFakeJudge(onTestFinished, {
      respond: () => ({ verdict: { reasoning: "right", score: 0.9 } }),
    });
    const env = { ...judge.env, DATABASE_URL: database.url };
    await ws.write("suite.yaml", suite("Gives the right number."));
    const first = await ws.cli(["eval", "--config", "suite.yaml", "--reporter", "json"], env);
    expect(first.code, first.stderr).toBe(0);
    const { runId } = JSON.parse(first.stdout) as { runId: string };

    const reported = await ws.cli(["report", "latest", "--reporter", "json"], env);
    expect((JSON.parse(reported.stdout) as { runId: string }).runId).toBe(runId);

    await ws.write("copy/mm2.yaml", suite("Gives the right number with its unit."));
    const regraded = await ws.cli(
      ["regrade", "latest", "--config", "copy/mm2.yaml", "--reporter", "json"],
      env,
    );
    expect(regraded.stderr).not.toContain("no stored run");
    expect(regraded.code, regraded.stderr).toBe(0);
    expect((JSON.parse(regraded.stdout) as { regradeOf?: string }).regradeOf).toBe(runId);
  }, 60_000);
});
