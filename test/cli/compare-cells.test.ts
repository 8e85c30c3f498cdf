import { describe, expect, test } from "vitest";
import {
  agentPrompt,
  agentTurn,
  isJudgeRequest,
  judgedCandidate,
  type AgentScript,
} from "../support/agent-script";
import type { FakeRequest } from "../support/fake-messages-api";
import { MCP_TEST_SERVER_ARGS } from "../support/mcp-test-server";
import { runCli } from "../support/run-cli";
import { makeWorkspace, startFakeJudge, yaml, type Workspace } from "./cli-harness";

// `compare: { eval, a, b }`: two matrix cells of one eval compared head to
// head, through the real CLI, the MCP test server and the SDK against the
// Messages API stand-in. The cells are live agent runs (one per dataset item
// and agent model), shared with the source eval's own cells; the pairs are
// judged in both orders by the pairwise engine, and a judge that favours the
// first slot on one item must be caught.

const cli = (ws: Workspace, args: string[], env: Record<string, string> = {}) =>
  runCli(args, { cwd: ws.dir, env, timeoutMs: 110_000 });

const SUITE = yaml(
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
  "  - name: weather runs",
  "    server: weather",
  "    candidates: { dataset: cities }",
  '    rubric: "States the temperature."',
  "    matrix: { agents: [claude-haiku-4-5, claude-sonnet-4-6] }",
  "  - name: haiku vs sonnet",
  '    rubric: "Which run answers the weather question better?"',
  "    compare:",
  "      eval: weather runs",
  "      a: { agent: claude-haiku-4-5 }",
  "      b: { agent: claude-sonnet-4-6 }",
  "      expect: B",
);

// The two agent models differ in what they tell the user.
const agent: AgentScript = (request, turn) => {
  const city = agentPrompt(request).includes("Paris") ? "Paris" : "Oslo";
  if (turn === 0) return { toolCalls: [{ name: "get_weather", input: { city } }] };
  return {
    text:
      request.body.model === "claude-sonnet-4-6"
        ? `${city}: 18C and clear, confirmed by the weather tool.`
        : "It is nice.",
  };
};

// The judge: on Paris it prefers Sonnet's detailed answer in both orders; on
// Oslo it always picks whichever run it was shown first.
function respond(request: FakeRequest) {
  if (!isJudgeRequest(request)) return agent(request, agentTurn(request));
  if (!request.user.includes("<response_a>"))
    return {
      verdict: {
        reasoning: "graded",
        score: judgedCandidate(request).includes("18C and clear,") ? 0.9 : 0.3,
      },
    };
  const first = /<response_a>\n([\s\S]*?)\n<\/response_a>/.exec(request.user)?.[1] ?? "";
  if (first.includes("Oslo"))
    return { toolInput: { reasoning: "the first one", winner: "A", confidence: 0.6 } };
  return {
    toolInput: {
      reasoning: "the detailed one",
      winner: first.includes("confirmed by the weather tool") ? "A" : "B",
      confidence: 0.9,
    },
  };
}

describe.concurrent("eval with compare: { eval, a, b }", { timeout: 120_000 }, () => {
  test("two agent cells of a live eval, paired per dataset item: both orders, shared runs, position bias caught, win rates and Wilson intervals", async ({
    onTestFinished,
  }) => {
    const ws = await makeWorkspace(onTestFinished);
    const judge = await startFakeJudge(onTestFinished, { respond });
    await ws.write("suite.yaml", SUITE);

    const explain = await cli(ws, ["eval", "--explain", "--config", "suite.yaml"]);
    expect(explain.code, explain.stderr).toBe(0);
    expect(explain.stdout).toContain(
      'candidate: 2 pairs of cells of eval "weather runs" (4 live runs, shared with eval "weather runs"\'s own cells)',
    );
    expect(explain.stdout).toMatch(
      /haiku vs sonnet\n.*\n {2}candidate: .*\n {2}judge: .*\n {2}judge calls: 4,/,
    );
    expect(explain.stdout).toMatch(/Plan: \d+ evals?, 5 cells, 8 judge calls/);

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
    // Four agent runs (2 items x 2 agents), each started once though the comparison grades them too.
    const agentStarts = judge.api.requests.filter(
      (r) => !isJudgeRequest(r) && (r.body.messages as unknown[]).length === 1,
    );
    expect(agentStarts).toHaveLength(4);
    const pairwiseRequests = judge.api.requests.filter(
      (r) => isJudgeRequest(r) && r.user.includes("<response_a>"),
    );
    expect(pairwiseRequests).toHaveLength(4);
    // Each run is shown first exactly once, and the shared input is the item's prompt.
    expect(
      new Set(
        pairwiseRequests.map((r) => /<response_a>\n([\s\S]*?)\n<\/response_a>/.exec(r.user)?.[1]),
      ).size,
    ).toBe(4);
    expect(
      pairwiseRequests.filter((r) =>
        r.user.includes("<user_prompt>\nWeather in Oslo?\n</user_prompt>"),
      ),
    ).toHaveLength(2);

    const report = await ws.readReport("out/report.json");
    const comparison = report.results.find((r) => r.name === "haiku vs sonnet")!;
    expect(comparison.status).toBe("passed");
    const pairwise = comparison.pairwise!;
    expect(pairwise.labels).toEqual({ a: "agent=claude-haiku-4-5", b: "agent=claude-sonnet-4-6" });
    expect(
      pairwise.pairs.map((p) => [p.item, p.original, p.swappedMapped, p.winner, p.positionBiased]),
    ).toEqual([
      ["paris", "B", "B", "B", false],
      ["oslo", "A", "B", "tie", true],
    ]);
    expect(pairwise.result).toMatchObject({
      win_rate_a: 0,
      win_rate_b: 0.5,
      tie_rate: 0.5,
      overall_winner: "B",
      confidence: 0.5,
    });
    expect(pairwise.positionBias).toEqual({
      rate: 0.5,
      biased: 1,
      comparable: 2,
      favoredFirst: 1,
      favoredSecond: 0,
    });
    expect(pairwise.wilson!.b.low).toBeGreaterThan(0);
    expect(pairwise.wilson!.b.high).toBeLessThan(1);
    // The outputs compared are the transcripts of the two cells' runs.
    expect(pairwise.result.comparisons[0]!.output_b).toContain(
      "Paris: 18C and clear, confirmed by the weather tool.",
    );
    expect(pairwise.result.comparisons[0]!.output_a).toContain("It is nice.");
    expect(run.stdout).toContain(
      "pair oslo · claude-sonnet-4-6: A first → A, B first → B (mapped); counted tie; position-biased (first slot)",
    );
    // The source eval's own cells were graded as usual (Haiku's vague answers fail).
    expect(
      report.results.filter((r) => r.eval === "weather runs").map((r) => [r.name, r.status]),
    ).toEqual([
      ["weather runs [item=paris, agent=claude-haiku-4-5]", "failed"],
      ["weather runs [item=paris, agent=claude-sonnet-4-6]", "passed"],
      ["weather runs [item=oslo, agent=claude-haiku-4-5]", "failed"],
      ["weather runs [item=oslo, agent=claude-sonnet-4-6]", "passed"],
    ]);
  });

  test("with --filter on the comparison alone, it still runs the cells it compares, and pays for them", async ({
    onTestFinished,
  }) => {
    const ws = await makeWorkspace(onTestFinished);
    const judge = await startFakeJudge(onTestFinished, { respond });
    await ws.write("suite.yaml", SUITE);
    const run = await cli(
      ws,
      ["eval", "--config", "suite.yaml", "--filter", "^haiku vs", "--reporter", "json"],
      judge.env,
    );
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout) as {
      results: { name: string; usage: { input: number }; calls: { usage: { input: number } }[] }[];
    };
    expect(report.results.map((r) => r.name)).toEqual(["haiku vs sonnet"]);
    expect(
      judge.api.requests.filter(
        (r) => !isJudgeRequest(r) && (r.body.messages as unknown[]).length === 1,
      ),
    ).toHaveLength(4);
    expect(judge.api.requests.filter((r) => isJudgeRequest(r))).toHaveLength(4);
    // The agent runs are this result's own: their tokens are in it, besides the judge calls'.
    const result = report.results[0]!;
    expect(result.calls).toHaveLength(4);
    expect(result.usage.input).toBeGreaterThan(result.calls.reduce((n, c) => n + c.usage.input, 0));
  });

  test("a cell that does not exist is a load-time error at the selector, naming the cells there are", async ({
    onTestFinished,
  }) => {
    const ws = await makeWorkspace(onTestFinished);
    await ws.write(
      "suite.yaml",
      SUITE.replace("b: { agent: claude-sonnet-4-6 }", "b: { agent: claude-opus-4-1, prompt: 2 }"),
    );
    const run = await cli(ws, ["validate", "--config", "suite.yaml"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      'suite.yaml:21:19: error: eval "weather runs" has no agent "claude-opus-4-1"; its matrix.agents: claude-haiku-4-5, claude-sonnet-4-6',
    );
    expect(run.stderr).toContain(
      'suite.yaml:21:44: error: eval "weather runs" has no matrix.prompts to pick from',
    );
  });
});
