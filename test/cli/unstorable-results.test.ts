import { describe, expect, it } from "vitest";
import { createRunStore } from "../../lib/store/run-store";
import { refuseResults } from "../support/refuse-results";
import { useTestDatabase } from "../support/test-database";
import { makeWorkspace, startFakeJudge, yaml } from "./cli-harness";

// What the run history cannot store, through the real CLI and the real store
// (PGlite, or Postgres 15 in CI): a suite with a NUL is refused at load, a
// judge's reply with one is stored with U+FFFD, a result the database refuses
// is stored as a judge error that says why and keeps its cost, and a run the
// database fails under says so in one line and is marked failed, not left
// running. Before: `22P05 unsupported Unicode escape sequence` as a minified
// Prisma stack trace, and the run `running` for ever.

const database = useTestDatabase();

const STACK = /\n\s+at |PrismaClient|client\.js/;

const twoEvals = yaml(
  "evals:",
  "  - name: refused",
  '    response: "A."',
  "    rubric:",
  "      criteria:",
  '        - { name: c, description: "Is it good?" }',
  "  - name: fine",
  '    response: "B."',
  "    rubric:",
  "      criteria:",
  '        - { name: c, description: "Is it good?" }',
);

async function runOf(runId: string) {
  return database.prisma.run.findUnique({
    where: { id: runId },
    select: { status: true, costUsd: true, judgeCalls: true, judgeErrors: true, passed: true },
  });
}

const runIdIn = (stderr: string) => /Storing run ([0-9a-f-]{36})/.exec(stderr)?.[1] ?? "";

describe("text and results the run history cannot store", () => {
  it('`eval --store` of a suite with "\\0": a located load error, no run stored, no judge call', async ({
    onTestFinished,
  }) => {
    const ws = await makeWorkspace(onTestFinished);
    const judge = await startFakeJudge(onTestFinished);
    await ws.write(
      "nul.yaml",
      yaml(
        "evals:",
        "  - name: nul",
        '    prompt: "P\\0Q"',
        '    response: "before\\0after"',
        '    rubric: "Is it good?"',
      ),
    );
    const runs = await database.prisma.run.count();
    const result = await ws.cli(["eval", "--config", "nul.yaml", "--store"], {
      ...judge.env,
      DATABASE_URL: database.url,
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      "nul.yaml:3:13: error: this value contains a NUL character (\\0), which the run history (Postgres text) cannot store; remove it",
    );
    expect(result.stderr).toContain("nul.yaml:4:15: error: this value contains a NUL character");
    expect(result.stderr).not.toMatch(STACK);
    expect(judge.api.requests).toHaveLength(0);
    expect(await database.prisma.run.count()).toBe(runs);
  });

  it("a judge reply holding a NUL and an unpaired surrogate is stored with U+FFFD; the run completes", async ({
    onTestFinished,
  }) => {
    const ws = await makeWorkspace(onTestFinished);
    const judge = await startFakeJudge(onTestFinished, {
      respond: () => ({ verdict: { reasoning: "quoted before\u0000after \ud800", score: 0.9 } }),
    });
    const env = { ...judge.env, DATABASE_URL: database.url };
    await ws.write("suite.yaml", twoEvals);
    const result = await ws.cli(["eval", "--config", "suite.yaml", "--store"], env);
    expect(result.stderr).not.toMatch(STACK);
    expect(result.code, result.stderr).toBe(0);
    const runId = runIdIn(result.stderr);
    expect(await runOf(runId)).toMatchObject({ status: "completed", passed: 2, judgeCalls: 2 });
    const stored = await createRunStore(database.prisma).results(runId);
    const criteria = stored.flatMap((r) => r.criteria);
    expect(criteria.map((c) => c.reasoning)).toEqual([
      "quoted before\ufffdafter \ufffd",
      "quoted before\ufffdafter \ufffd",
    ]);
    expect(criteria.map((c) => c.verdicts[0]?.reasoning)).toEqual([
      "quoted before\ufffdafter \ufffd",
      "quoted before\ufffdafter \ufffd",
    ]);
    // The judge cache kept the verdict too: a second run pays nothing.
    const again = await ws.cli(["eval", "--config", "suite.yaml", "--store"], env);
    expect(again.code, again.stderr).toBe(0);
    expect(judge.api.requests).toHaveLength(2);
  });

  it("a result the database refuses is stored as a judge error with its cause and its cost, in one line", async ({
    onTestFinished,
  }) => {
    const ws = await makeWorkspace(onTestFinished);
    const judge = await startFakeJudge(onTestFinished);
    onTestFinished(
      await refuseResults({ prisma: database.prisma, name: "refuse_graded", which: "graded" }),
    );
    await ws.write("suite.yaml", twoEvals.replace(/"Is it good\?"/g, '"Is it good (graded)?"'));
    const result = await ws.cli(["eval", "--config", "suite.yaml", "--store"], {
      ...judge.env,
      DATABASE_URL: database.url,
    });
    expect(result.stderr).not.toMatch(STACK);
    const lines = result.stderr.split("\n").filter((l) => l.startsWith("error:"));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^error: refused: the result could not be stored: .*refused by the test's trigger/,
    );
    const runId = runIdIn(result.stderr);
    const run = await runOf(runId);
    expect(run).toMatchObject({ status: "completed", passed: 1, judgeErrors: 1, judgeCalls: 2 });
    // Both calls were paid, and both are counted.
    expect(run!.costUsd).toBeGreaterThan(0);
    const refused = await database.prisma.evalResultRow.findFirst({
      where: { runId, evalName: "refused" },
    });
    expect(refused).toMatchObject({ status: "judge_error", judgeCalls: 1 });
    expect(refused!.costUsd).toBeCloseTo(run!.costUsd / 2, 10);
    expect(refused!.reason).toMatch(/could not be stored: .*refused by the test's trigger/);
  });

  it("a refused result's report lines, as the run goes and after, show the judge error stored in its place", async ({
    onTestFinished,
  }) => {
    const ws = await makeWorkspace(onTestFinished);
    const judge = await startFakeJudge(onTestFinished);
    onTestFinished(
      await refuseResults({ prisma: database.prisma, name: "refuse_lines", which: "graded" }),
    );
    await ws.write("suite.yaml", twoEvals.replace(/"Is it good\?"/g, '"Is it good (lines)?"'));
    const env = { ...judge.env, DATABASE_URL: database.url };
    const result = await ws.cli(
      ["eval", "--config", "suite.yaml", "--store", "--reporter", "ndjson"],
      env,
    );
    expect(result.stderr).not.toMatch(STACK);
    const events = result.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const lines = events.filter((e) => e.type === "result");
    const summary = events.find((e) => e.type === "summary");
    // Before: the refused result's line said "passed" while the summary and the run said judge error.
    expect(lines.map((e) => [e.name, e.status])).toEqual([
      ["refused", "judge_error"],
      ["fine", "passed"],
    ]);
    expect(lines[0]!.reason).toMatch(/could not be stored: .*refused by the test's trigger/);
    expect(summary).toMatchObject({ passed: 1, judgeErrors: 1 });
    // `report RUN_ID` reads the stored run: the same statuses and reasons.
    const runId = runIdIn(result.stderr);
    const stored = await ws.cli(["report", runId, "--reporter", "ndjson"], env);
    const storedLines = stored.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((e) => e.type === "result");
    expect(storedLines.map((e) => [e.name, e.status, e.reason])).toEqual(
      lines.map((e) => [e.name, e.status, e.reason]),
    );
  });

  it("a run the database fails under: one line, the run failed, not left running", async ({
    onTestFinished,
  }) => {
    const ws = await makeWorkspace(onTestFinished);
    const judge = await startFakeJudge(onTestFinished);
    onTestFinished(
      await refuseResults({ prisma: database.prisma, name: "refuse_all", which: "all" }),
    );
    await ws.write("suite.yaml", twoEvals.replace(/"Is it good\?"/g, '"Is it good (all)?"'));
    const result = await ws.cli(["eval", "--config", "suite.yaml", "--store"], {
      ...judge.env,
      DATABASE_URL: database.url,
    });
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).not.toMatch(STACK);
    const runId = runIdIn(result.stderr);
    const lines = result.stderr.trim().split("\n");
    expect(lines.at(-1)).toMatch(
      new RegExp(`^error: run ${runId} failed: .*refused by the test's trigger`),
    );
    expect((await runOf(runId))?.status).toBe("failed");
  });
});
