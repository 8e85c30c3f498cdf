import { describe, expect, test } from "vitest";
import { callThenAnswer, scriptAgents } from "../support/agent-script";
import { startFakeOpenAIApi, type FakeOpenAIApiOptions } from "../support/fake-openai-api";
import { MCP_TEST_SERVER_ARGS } from "../support/mcp-test-server";
import {
  chatAgentPrompt,
  chatCallThenAnswer,
  isChatJudgeRequest,
  scriptChatAgents,
} from "../support/openai-agent-script";
import { runCli } from "../support/run-cli";
import {
  makeWorkspace,
  startFakeJudge,
  yaml,
  type OnFinished,
  type Workspace,
} from "./cli-harness";

// Live agents on OpenAI-compatible models (issue 11), through the real CLI:
// the agent loop runs the real `openai` SDK against the Chat Completions
// stand-in, with tool calls against our real MCP test server over stdio, and
// the judge grades the transcript. Also: a matrix of agents from three
// vendors, and the warning when a judge grades its own model family's agent.

const SLOW = { timeout: 120_000 };
const cli = (ws: Workspace, args: string[], env: Record<string, string> = {}) =>
  runCli(args, { cwd: ws.dir, env, timeoutMs: 110_000 });

async function startOpenAI(onFinished: OnFinished, options: FakeOpenAIApiOptions = {}) {
  const api = await startFakeOpenAIApi(options);
  onFinished(() => api.close());
  return api;
}

const SERVER = [
  "servers:",
  "  calendar:",
  `    command: ${JSON.stringify(process.execPath)}`,
  `    args: ${JSON.stringify(MCP_TEST_SERVER_ARGS)}`,
].join("\n");

const BOOK = {
  name: "create_event",
  input: { title: "Meeting with Alice", day: "Tuesday", time: "14:00" },
};

/** One live eval booking a meeting; `extra` lines go under the eval (agent:, matrix:, judge:). */
function suite(input: { localUrl: string; extra: string[]; judge?: string }): string {
  return yaml(
    "providers:",
    `  local: { type: openai, base_url: "${input.localUrl}" }`,
    SERVER,
    ...(input.judge ? [`judge: { model: ${input.judge} }`] : []),
    "evals:",
    "  - name: books the meeting",
    "    server: calendar",
    '    prompt: "Book a meeting with Alice next Tuesday at 2pm."',
    '    rubric: "Created the event on Tuesday and confirmed it."',
    ...input.extra.map((line) => `    ${line}`),
  );
}

describe.concurrent("live agents on OpenAI-compatible models", SLOW, () => {
  test("an agent on a local OpenAI-compatible server calls the real MCP server; the judge grades its transcript", async ({
    onTestFinished,
  }) => {
    const ws = await makeWorkspace(onTestFinished);
    const local = await startOpenAI(onTestFinished, {
      respond: scriptChatAgents({
        agent: chatCallThenAnswer(BOOK, "Booked: Meeting with Alice, Tuesday 14:00."),
        judge: () => ({ status: 500 }),
      }),
    });
    const judge = await startFakeJudge(onTestFinished, {
      respond: (request) => ({
        verdict: {
          reasoning: "created and confirmed",
          score: request.user.includes("Created event evt_042") ? 0.9 : 0.1,
        },
      }),
    });
    await ws.write(
      "suite.yaml",
      suite({
        localUrl: local.url,
        judge: "claude-haiku-4-5",
        extra: ["agent: { model: local:qwen3-8b, max_tokens: 512 }"],
      }),
    );

    const run = await cli(
      ws,
      [
        "eval",
        "--config",
        "suite.yaml",
        "--reporter",
        "pretty,json,md",
        "--output",
        "out",
        "--no-color",
      ],
      judge.env,
    );
    expect(run.stderr, run.stderr + run.stdout).not.toMatch(/error|warning/i);
    expect(run.code).toBe(0);
    const result = (await ws.readReport("out/report.json")).results[0]!;
    expect(result.status).toBe("passed");
    // The transcript the Anthropic judge graded: the real server's answer to the tool call the local model made.
    const transcript = result.candidate.transcript!;
    expect(transcript.entries.map((e) => e.kind)).toEqual(["user", "tool_call", "final"]);
    expect(transcript.entries[1]).toMatchObject({
      name: "create_event",
      arguments: BOOK.input,
      isError: false,
    });
    expect((transcript.entries[1] as { result: string }).result).toContain("Created event evt_042");
    expect(transcript).toMatchObject({
      model: "local:qwen3-8b",
      provider: "local",
      stop: "final",
      turns: 2,
    });
    expect(judge.api.requests).toHaveLength(1);
    expect(judge.api.requests[0]!.user).toContain("Booked: Meeting with Alice, Tuesday 14:00.");

    // Chat Completions on the wire: the model without its prefix, the server's tools as functions, the
    // local server's max_tokens, and the tool result sent back as a role: tool message for the call's id.
    const [first, second] = local.requests;
    expect(local.requests).toHaveLength(2);
    expect(first!.model).toBe("qwen3-8b");
    expect(first!.body.max_tokens).toBe(512);
    expect(
      (first!.body.tools as { type: string; function: { name: string } }[]).map((t) => [
        t.type,
        t.function.name,
      ]),
    ).toEqual(
      expect.arrayContaining([
        ["function", "create_event"],
        ["function", "get_weather"],
      ]),
    );
    const messages = second!.body.messages as {
      role: string;
      content: string | null;
      tool_call_id?: string;
      tool_calls?: { id: string }[];
    }[];
    expect(messages.map((m) => m.role)).toEqual(["user", "assistant", "tool"]);
    expect(messages[2]!.tool_call_id).toBe(messages[1]!.tool_calls![0]!.id);
    expect(messages[2]!.content).toContain("Created event evt_042");

    // The agent's provider and its tokens are in the report; a local model has no price.
    expect(result.candidate.agent).toMatchObject({
      model: "local:qwen3-8b",
      provider: "local",
      turns: 2,
    });
    expect(result.candidate.agent!.usage.input).toBe(2400);
    expect(result.candidate.agent!.calls.map((c) => c.costUsd)).toEqual([null, null]);
    expect(run.stdout).toMatch(/PASS +books the meeting .*\$0\.\d+ \+ unpriced/);
    expect(run.stdout).not.toContain("favour");

    // --max-cost cannot bound an unpriced agent model either: it refuses to start, and calls nothing.
    const requestsBefore = local.requests.length;
    const refused = await cli(ws, ["eval", "--config", "suite.yaml", "--max-cost", "1"], judge.env);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(
      /--max-cost cannot bound the spend of local:qwen3-8b: no known price/,
    );
    expect(local.requests).toHaveLength(requestsBefore);
  });

  test("a matrix of agents from three vendors is graded on one rubric; the judge's own family is warned about, at load time and in the report", async ({
    onTestFinished,
  }) => {
    const ws = await makeWorkspace(onTestFinished);
    const done = "Booked: Meeting with Alice, Tuesday 14:00.";
    const anthropic = await startFakeJudge(onTestFinished, {
      respond: scriptAgents({
        agent: callThenAnswer(BOOK, done),
        judge: (_r, candidate) => ({
          verdict: { reasoning: "ok", score: candidate.includes("evt_042") ? 0.9 : 0.2 },
        }),
      }),
    });
    const openai = await startOpenAI(onTestFinished, {
      respond: scriptChatAgents({ agent: chatCallThenAnswer(BOOK, done) }),
    });
    const local = await startOpenAI(onTestFinished, {
      respond: scriptChatAgents({ agent: chatCallThenAnswer(BOOK, done) }),
    });
    await ws.write(
      "suite.yaml",
      suite({
        localUrl: local.url,
        judge: "claude-sonnet-4-6",
        extra: ["matrix: { agents: [claude-haiku-4-5, openai:gpt-4.1-mini, local:qwen3-8b] }"],
      }),
    );
    const env = { ...anthropic.env, OPENAI_API_KEY: "sk-openai-test", OPENAI_BASE_URL: openai.url };

    // Load time: located at the Claude agent, and only there.
    const validate = await cli(ws, ["validate", "--config", "suite.yaml"], env);
    expect(validate.code).toBe(0);
    const warnings = validate.stderr.split("\n").filter((l) => l.includes("warning"));
    expect(warnings).toEqual([
      "suite.yaml:13:24: warning: judge claude-sonnet-4-6 grades the run of agent claude-haiku-4-5, both Claude models: judges favour outputs of their own family, so prefer a judge (or a panel) of another family for this comparison",
    ]);

    // --explain shows each agent's provider, as it does each judge's, and repeats the warning.
    const explain = await cli(ws, ["eval", "--explain", "--config", "suite.yaml"], env);
    expect(explain.code).toBe(0);
    expect(explain.stderr).toContain(
      "suite.yaml:13:24: warning: judge claude-sonnet-4-6 grades the run of agent claude-haiku-4-5",
    );
    for (const agent of [
      "claude-haiku-4-5 (anthropic)",
      "openai:gpt-4.1-mini (openai)",
      "local:qwen3-8b (local)",
    ])
      expect(explain.stdout).toContain(`agent: ${agent}, up to 10 turns`);

    const run = await cli(
      ws,
      [
        "eval",
        "--config",
        "suite.yaml",
        "--reporter",
        "pretty,json,md,junit,sarif,gitlab,ndjson,tap,html",
        "--output",
        "out",
        "--no-color",
      ],
      env,
    );
    expect(run.code, run.stderr).toBe(0);
    const report = await ws.readReport("out/report.json");
    expect(
      report.results.map((r) => [
        r.name,
        r.status,
        r.candidate.agent?.provider,
        r.candidate.transcript?.stop,
      ]),
    ).toEqual([
      ["books the meeting [agent=claude-haiku-4-5]", "passed", "anthropic", "final"],
      ["books the meeting [agent=openai:gpt-4.1-mini]", "passed", "openai", "final"],
      ["books the meeting [agent=local:qwen3-8b]", "passed", "local", "final"],
    ]);
    // Each agent ran on its own vendor's endpoint, without its prefix.
    expect(openai.requests.map((r) => r.model)).toEqual(["gpt-4.1-mini", "gpt-4.1-mini"]);
    expect(openai.requests[0]!.body.max_completion_tokens).toBe(2048);
    expect(local.requests.map((r) => r.model)).toEqual(["qwen3-8b", "qwen3-8b"]);
    expect(openai.requests.some(isChatJudgeRequest)).toBe(false);
    // OpenAI's agent is priced from OpenAI's table; the local one is not.
    const [claude, gpt, qwen] = report.results.map((r) => r.candidate.agent!);
    expect(claude!.costUsd).toBeGreaterThan(0);
    expect(gpt!.costUsd).toBeCloseTo((2 * 1200 * 0.4 + 2 * 60 * 1.6) / 1e6, 12);
    expect(qwen!.calls.every((c) => c.costUsd === null)).toBe(true);

    // The report: the one same-family pair, in every reporter.
    expect(report.selfGrading).toEqual([
      expect.objectContaining({
        judge: "claude-sonnet-4-6",
        agent: "claude-haiku-4-5",
        family: "Claude",
        results: ["books the meeting [agent=claude-haiku-4-5]"],
      }),
    ]);
    const line =
      "warning: judge claude-sonnet-4-6 grades the run of agent claude-haiku-4-5, both Claude models";
    expect(run.stdout).toContain(line);
    // Each transcript names its agent's provider (the HTML report shows every run).
    expect(await ws.read("out/report.html")).toContain(
      "agent openai:gpt-4.1-mini (openai) · 2 of 10 turns",
    );
    for (const file of [
      "report.md",
      "report.xml",
      "report.sarif",
      "report.gitlab.json",
      "report.ndjson",
      "report.tap",
      "report.html",
    ]) {
      expect(await ws.read(`out/${file}`), file).toContain(
        "grades the run of agent claude-haiku-4-5, both Claude models",
      );
    }
    expect(await ws.read("out/report.md")).not.toContain("agent openai:gpt-4.1-mini, both");
  });

  test("a GPT judge on a GPT agent is warned about; a Claude judge on the same agent is not; an agent without its provider's key defers", async ({
    onTestFinished,
  }) => {
    const ws = await makeWorkspace(onTestFinished);
    const gptJudged = suite({
      localUrl: "http://127.0.0.1:9/v1",
      judge: "openai:gpt-4.1",
      extra: ["agent: { model: openai:gpt-4.1-mini }"],
    });
    await ws.write("same.yaml", gptJudged);
    await ws.write(
      "other.yaml",
      gptJudged.replace("judge: { model: openai:gpt-4.1 }", "judge: { model: claude-haiku-4-5 }"),
    );
    const same = await cli(ws, ["validate", "--config", "same.yaml"]);
    expect(same.code).toBe(0);
    expect(same.stderr).toMatch(
      /^same\.yaml:13:21: warning: judge openai:gpt-4\.1 grades the run of agent openai:gpt-4\.1-mini, both OpenAI GPT models/m,
    );
    const other = await cli(ws, ["validate", "--config", "other.yaml"]);
    expect(other.code).toBe(0);
    expect(other.stderr).not.toContain("warning");

    // The judge's key is set, the agent's is not: --explain says so, and a run defers that eval without starting its server.
    const keys = { ANTHROPIC_API_KEY: "sk-ant-test", ANTHROPIC_BASE_URL: "http://127.0.0.1:9" };
    const explain = await cli(ws, ["eval", "--explain", "--config", "other.yaml"], keys);
    expect(explain.stdout).toContain("agent: openai:gpt-4.1-mini (openai), up to 10 turns");
    expect(explain.stdout).toContain(
      "A real run would defer 1 cell (1 judge call of the plan above): no key for agent model openai:gpt-4.1-mini: set OPENAI_API_KEY to run it.",
    );
    const run = await cli(ws, ["eval", "--config", "other.yaml", "--reporter", "json"], keys);
    expect(run.code).toBe(0);
    expect(
      JSON.parse(run.stdout).results.map((r: { status: string; note: string }) => [
        r.status,
        r.note,
      ]),
    ).toEqual([
      ["deferred", "no key for agent model openai:gpt-4.1-mini: set OPENAI_API_KEY to run it"],
    ]);
  });

  test("a malformed tool call from the model ends that eval as a located agent error, not a crash; a 429 is retried", async ({
    onTestFinished,
  }) => {
    const ws = await makeWorkspace(onTestFinished);
    let weatherCalls = 0;
    const local = await startOpenAI(onTestFinished, {
      respond: (request) => {
        if (chatAgentPrompt(request).startsWith("Book"))
          return {
            toolCalls: [
              { name: "create_event", arguments: '{"title": "Meeting with Alice", "day": ' },
            ],
          };
        // The other agent's first call is rate limited: retried after retry-after, as a judge call is.
        return ++weatherCalls === 1
          ? { status: 429, headers: { "retry-after": "0" } }
          : { content: "It is sunny." };
      },
    });
    const judge = await startFakeJudge(onTestFinished);
    await ws.write(
      "suite.yaml",
      suite({
        localUrl: local.url,
        judge: "claude-haiku-4-5",
        extra: ["agent: { model: local:qwen3-8b }"],
      }) +
        yaml(
          "  - name: weather",
          "    server: calendar",
          '    prompt: "Weather in Paris?"',
          '    rubric: "States the weather."',
          "    agent: { model: local:qwen3-8b }",
        ),
    );
    const run = await cli(
      ws,
      [
        "eval",
        "--config",
        "suite.yaml",
        "--reporter",
        "pretty,json,md",
        "--output",
        "out",
        "--no-color",
      ],
      judge.env,
    );
    expect(run.code).toBe(1);
    expect(run.stderr).not.toMatch(/TypeError|SyntaxError|at .*\.ts:\d+/);
    const [booked, weather] = (await ws.readReport("out/report.json")).results;
    expect(booked).toMatchObject({
      status: "failed",
      reason: expect.stringMatching(
        /^live run failed: the agent's model local:qwen3-8b sent a malformed reply at turn 1: the arguments of tool call 1 \("create_event"\) are not valid JSON \(.+\): "\{\\"title\\": \\"Meeting with Alice\\", \\"day\\": "$/,
      ),
    });
    expect(booked!.candidate.transcript).toMatchObject({ stop: "error", turns: 1 });
    expect(booked!.candidate.agent!.calls[0]!.error).toMatch(/^malformed: /);
    expect(run.stdout).toMatch(/FAIL +books the meeting/);
    // The other eval ran and was graded; no judge call was spent on the broken run.
    expect(weather!.status).toBe("passed");
    expect(weather!.candidate.agent!.calls.map((c) => c.attempts)).toEqual([2]);
    expect(judge.api.requests).toHaveLength(1);
  });
});
