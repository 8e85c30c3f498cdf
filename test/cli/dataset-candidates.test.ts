import { describe, expect, test } from "vitest";
import { agentPrompt, callThenAnswer, isJudgeRequest, scriptAgents } from "../support/agent-script";
import { MCP_TEST_SERVER_ARGS } from "../support/mcp-test-server";
import { runCli } from "../support/run-cli";
import { useTestDatabase } from "../support/test-database";
import { candidateOf, makeWorkspace, startFakeJudge, yaml, type Workspace } from "./cli-harness";

// An eval that takes its candidates from a dataset, through the real CLI and
// SDK against the Messages API stand-in: each item is one result named by its
// id, graded with its expected output (or, with a server, the live run of its
// input), in every matrix cell, in the plan and the reports.

const DATASET = JSON.stringify({
  id: "support-v1",
  name: "Support answers",
  items: [
    {
      id: "reset",
      input: "How do I reset my password?",
      expected_output: "Use the reset link on the sign-in page.",
      context: ["The reset link is on the sign-in page."],
    },
    {
      id: "refund",
      input: "Can I get a refund?",
      expected_output: "Refunds are possible within 30 days of purchase.",
      context: ["Refund window: 30 days."],
    },
    { id: "export", input: "How do I export my data?", expected_output: "I am not sure." },
  ],
});

const FIXED = yaml(
  "datasets:",
  "  support: { file: data/support.json }",
  "evals:",
  "  - name: support answers",
  "    candidates: { dataset: support }",
  '    prompt: "Context: {{context}}\\nQuestion: {{input}}"',
  '    rubric: "Answers the question from the context."',
  "    matrix: { models: [claude-sonnet-4-6, claude-haiku-4-5] }",
);

const database = useTestDatabase();
// Each test starts the CLI a few times; on a busy two-core machine one start can take long.
const cli = (ws: Workspace, args: string[], env: Record<string, string> = {}) =>
  runCli(args, { cwd: ws.dir, env, timeoutMs: 110_000 });

describe.concurrent("eval with candidates: { dataset }", { timeout: 120_000 }, () => {
  test("fixed: one result per item and judge model, named by item id, graded on its expected output with the prompt template filled", async ({
    onTestFinished,
  }) => {
    const ws = await makeWorkspace(onTestFinished);
    const judge = await startFakeJudge(onTestFinished, {
      respond: (request) => ({
        verdict: {
          reasoning: "checked",
          score: candidateOf(request) === "I am not sure." ? 0.1 : 0.9,
        },
      }),
    });
    await ws.write("data/support.json", DATASET);
    await ws.write("suite.yaml", FIXED);

    const explain = await cli(ws, ["eval", "--explain", "--config", "suite.yaml"]);
    expect(explain.code, explain.stderr).toBe(0);
    expect(explain.stdout).toContain("support answers [item=refund, model=claude-haiku-4-5]");
    expect(explain.stdout).toContain(
      'candidate: fixed response (48 chars), dataset "support" item "refund"',
    );
    expect(explain.stdout).toMatch(/Plan: \d+ evals?, 6 cells, 6 judge calls/);

    const run = await cli(
      ws,
      [
        "eval",
        "--config",
        "suite.yaml",
        "--reporter",
        "pretty,json",
        "--output",
        "out/report.json",
        "--no-color",
      ],
      judge.env,
    );
    expect(run.code, run.stderr).toBe(1);
    expect(judge.api.requests).toHaveLength(6);
    const graded = judge.api.requests.map(candidateOf).sort();
    expect(graded).toEqual([
      "I am not sure.",
      "I am not sure.",
      "Refunds are possible within 30 days of purchase.",
      "Refunds are possible within 30 days of purchase.",
      "Use the reset link on the sign-in page.",
      "Use the reset link on the sign-in page.",
    ]);
    const resetRequest = judge.api.requests.find((r) =>
      candidateOf(r).startsWith("Use the reset"),
    )!;
    expect(resetRequest.user).toContain(
      "<user_prompt>\nContext: The reset link is on the sign-in page.\nQuestion: How do I reset my password?\n</user_prompt>",
    );

    const report = await ws.readReport("out/report.json");
    expect(report.results.map((r) => [r.name, r.status])).toEqual([
      ["support answers [item=reset, model=claude-sonnet-4-6]", "passed"],
      ["support answers [item=reset, model=claude-haiku-4-5]", "passed"],
      ["support answers [item=refund, model=claude-sonnet-4-6]", "passed"],
      ["support answers [item=refund, model=claude-haiku-4-5]", "passed"],
      ["support answers [item=export, model=claude-sonnet-4-6]", "failed"],
      ["support answers [item=export, model=claude-haiku-4-5]", "failed"],
    ]);
    expect(report.results[4]!.cell).toEqual({ item: "export", model: "claude-sonnet-4-6" });
    expect(report.results[4]!.candidate).toMatchObject({
      source: "fixed",
      prompt: "Context: \nQuestion: How do I export my data?",
      response: "I am not sure.",
    });
    expect(report.summary.judgeCalls).toBe(6);
    expect(run.stdout).toMatch(
      /✗ FAIL +support answers \[item=export, model=claude-haiku-4-5\] +0\.10/,
    );
    expect(run.stdout).toContain("cell: item export, model claude-sonnet-4-6");
  });

  test("a file item without the expected output it would be graded on is a load-time error at the eval", async ({
    onTestFinished,
  }) => {
    const ws = await makeWorkspace(onTestFinished);
    await ws.write(
      "data/support.json",
      JSON.stringify({ id: "d", name: "d", items: [{ id: "q1", input: "Hi?" }] }),
    );
    await ws.write("suite.yaml", FIXED);
    const run = await cli(ws, ["validate", "--config", "suite.yaml"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      'suite.yaml:4:5: error: data/support.json: item "q1" of dataset "support" has no expected_output, which eval "support answers" grades as its response',
    );
  });

  test(
    "live: each item's input is the prompt the agent runs; one run and one result per item and agent model",
    { timeout: 120_000 },
    async ({ onTestFinished }) => {
      const ws = await makeWorkspace(onTestFinished);
      const judge = await startFakeJudge(onTestFinished, {
        respond: scriptAgents({
          agent: (request, turn) =>
            callThenAnswer(
              {
                name: "get_weather",
                input: { city: agentPrompt(request).includes("Paris") ? "Paris" : "Oslo" },
              },
              `Done: ${agentPrompt(request)}`,
            )(request, turn),
          judge: (_request, candidate) => ({
            verdict: { reasoning: "read the run", score: candidate.includes("Oslo") ? 0.2 : 0.95 },
          }),
        }),
      });
      await ws.write(
        "suite.yaml",
        yaml(
          "servers:",
          "  weather:",
          `    command: ${JSON.stringify(process.execPath)}`,
          `    args: ${JSON.stringify(MCP_TEST_SERVER_ARGS)}`,
          "datasets:",
          "  cities:",
          "    items:",
          '      - { id: paris, input: "Weather in Paris?" }',
          '      - { id: oslo, input: "Weather in Oslo?" }',
          "evals:",
          "  - name: weather answers",
          "    server: weather",
          "    candidates: { dataset: cities }",
          '    prompt: "{{input}} Answer in one line."',
          '    rubric: "Called the weather tool for the right city."',
          "    matrix: { agents: [claude-haiku-4-5, claude-sonnet-4-6] }",
        ),
      );
      const run = await cli(
        ws,
        ["eval", "--config", "suite.yaml", "--reporter", "json"],
        judge.env,
      );
      expect(run.code, run.stderr).toBe(1);
      const agentRuns = judge.api.requests.filter(
        (r) => !isJudgeRequest(r) && r.body.messages && (r.body.messages as unknown[]).length === 1,
      );
      expect(agentRuns.map((r) => `${String(r.body.model)}: ${agentPrompt(r)}`).sort()).toEqual([
        "claude-haiku-4-5: Weather in Oslo? Answer in one line.",
        "claude-haiku-4-5: Weather in Paris? Answer in one line.",
        "claude-sonnet-4-6: Weather in Oslo? Answer in one line.",
        "claude-sonnet-4-6: Weather in Paris? Answer in one line.",
      ]);
      const report = JSON.parse(run.stdout) as {
        results: { name: string; status: string; candidate: { source: string; prompt: string } }[];
      };
      expect(report.results.map((r) => [r.name, r.status])).toEqual([
        ["weather answers [item=paris, agent=claude-haiku-4-5]", "passed"],
        ["weather answers [item=paris, agent=claude-sonnet-4-6]", "passed"],
        ["weather answers [item=oslo, agent=claude-haiku-4-5]", "failed"],
        ["weather answers [item=oslo, agent=claude-sonnet-4-6]", "failed"],
      ]);
      expect(report.results[2]!.candidate).toMatchObject({
        source: "live",
        prompt: "Weather in Oslo? Answer in one line.",
      });
    },
  );

  test(
    "--store keeps one result per item; a rerun reuses every verdict",
    { timeout: 120_000 },
    async ({ onTestFinished }) => {
      const ws = await makeWorkspace(onTestFinished);
      const judge = await startFakeJudge(onTestFinished, {
        respond: () => ({ verdict: { reasoning: "ok", score: 0.9 } }),
      });
      await ws.write("data/support.json", DATASET);
      await ws.write(
        "stored.yaml",
        FIXED.replace("Answers the question from the context.", "Answers the question (stored)."),
      );
      const env = { ...judge.env, DATABASE_URL: database.url };

      const first = await cli(ws, ["eval", "--config", "stored.yaml"], env);
      expect(first.code, first.stderr).toBe(0);
      expect(judge.api.requests).toHaveLength(6);
      const run = await database.prisma.run.findFirstOrThrow({
        where: { suite: { name: "stored.yaml" } },
      });
      const stored = await database.prisma.evalResultRow.findMany({
        where: { runId: run.id },
        select: { resultKey: true },
      });
      expect(stored.map((r) => r.resultKey).sort()).toEqual([
        "support answers::item=export::model=claude-haiku-4-5",
        "support answers::item=export::model=claude-sonnet-4-6",
        "support answers::item=refund::model=claude-haiku-4-5",
        "support answers::item=refund::model=claude-sonnet-4-6",
        "support answers::item=reset::model=claude-haiku-4-5",
        "support answers::item=reset::model=claude-sonnet-4-6",
      ]);

      const second = await cli(ws, ["eval", "--config", "stored.yaml", "--reporter", "json"], env);
      expect(second.code, second.stderr).toBe(0);
      expect(judge.api.requests).toHaveLength(6);
      expect(JSON.parse(second.stdout).summary.reused.calls).toBe(6);
    },
  );
});
