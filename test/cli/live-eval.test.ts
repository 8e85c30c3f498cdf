import { stat } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import {
  agentPrompt,
  callThenAnswer,
  isJudgeRequest,
  scriptAgents,
  type AgentScript,
} from "../support/agent-script";
import { MCP_TEST_SERVER_ARGS, startMcpTestHttpServer } from "../support/mcp-test-server";
import { runCli } from "../support/run-cli";
import { makeWorkspace, startFakeJudge, yaml, type Workspace } from "./cli-harness";

// `rubric-studio eval` on suites with live evals, as a user runs it: the real
// CLI in a child process starts the MCP servers its suite names, drives the
// agent and the judge through the Messages API stand-in, and writes reports.

const REPO = fileURLToPath(new URL("../..", import.meta.url));
// Each run starts the CLI and one or two server processes (through tsx): on a
// busy two-core machine that takes a while, so these tests get room.
const SLOW = { timeout: 120_000 };
const cli = (ws: Workspace, args: string[], env: Record<string, string> = {}) =>
  runCli(args, { cwd: ws.dir, env, timeoutMs: 110_000 });

const server = (name: string, env: Record<string, string> = {}) =>
  [
    `  ${name}:`,
    `    command: ${JSON.stringify(process.execPath)}`,
    `    args: ${JSON.stringify(MCP_TEST_SERVER_ARGS)}`,
    ...(Object.keys(env).length
      ? ["    env:", ...Object.entries(env).map(([k, v]) => `      ${k}: ${JSON.stringify(v)}`)]
      : []),
  ].join("\n");

const bookAgent: AgentScript = (request, turn) =>
  agentPrompt(request).startsWith("Book")
    ? callThenAnswer(
        {
          name: "create_event",
          input: {
            title: "Meeting with Alice",
            day: "Tuesday",
            time: "14:00",
            notes: "api_key=sk-ant-api03-SECRETSECRETSECRET",
          },
        },
        "Booked for Tuesday 14:00.",
      )(request, turn)
    : callThenAnswer(
        { name: "get_weather", input: { city: "Paris", forecast_days: 120 } },
        "It is 18C and clear in Paris.",
      )(request, turn);

const SUITE = (servers: string) =>
  yaml(
    "servers:",
    servers,
    "agent: { max_result_chars: 200 }",
    "evals:",
    "  - name: books the meeting",
    "    server: calendar",
    '    prompt: "Book a meeting with Alice next Tuesday at 2pm."',
    '    rubric: "Created the event on Tuesday and confirmed it."',
    "  - name: weather with a forecast",
    "    server: calendar",
    '    prompt: "What is the weather in Paris this season?"',
    '    rubric: "States the temperature."',
  );

describe.concurrent("rubric-studio eval with live evals", SLOW, () => {
  test("over stdio: graded runs; JSON carries the structured transcript; md, html and pretty show it; secrets redacted, long results cut", async ({
    onTestFinished,
  }) => {
    const ws = await makeWorkspace(onTestFinished);
    const judge = await startFakeJudge(onTestFinished, {
      respond: scriptAgents({
        agent: bookAgent,
        judge: (_r, candidate) => ({
          verdict: { reasoning: "judged", score: candidate.includes("weather") ? 1 : 0.2 },
        }),
      }),
    });
    await ws.write("suite.yaml", SUITE(server("calendar")));
    const run = await cli(
      ws,
      [
        "eval",
        "--config",
        "suite.yaml",
        "--reporter",
        "pretty,json,md,html",
        "--output",
        "out",
        "--no-color",
      ],
      judge.env,
    );

    expect(run.code).toBe(1);
    const report = await ws.readReport("out/report.json");
    const [booked, weather] = report.results;
    expect([booked!.status, weather!.status]).toEqual(["failed", "passed"]);
    const entries = booked!.candidate.transcript!.entries;
    expect(entries.map((e) => e.kind)).toEqual(["user", "tool_call", "final"]);
    // The key the agent passed (and the server echoed) never reaches the transcript, the judge or a report...
    expect(entries[1]).toMatchObject({
      name: "create_event",
      arguments: { title: "Meeting with Alice", notes: "api_key=[REDACTED]" },
    });
    expect((entries[1] as { result: string }).result).toContain("Notes: api_key=[REDACTED]");
    for (const file of ["out/report.json", "out/report.md", "out/report.html"])
      expect(await ws.read(file)).not.toContain("SECRETSECRET");
    expect(run.stdout).not.toContain("SECRETSECRET");
    const judged = judge.api.requests.filter(isJudgeRequest).map((r) => r.user);
    expect(judged.join("\n")).not.toContain("SECRETSECRET");
    // ...while the agent itself, the real run, got the real result back.
    expect(
      judge.api.requests
        .filter((r) => !isJudgeRequest(r))
        .map((r) => r.user)
        .join("\n"),
    ).toContain("SECRETSECRETSECRET");

    // A result longer than max_result_chars is cut in the transcript, with a marker.
    const forecast = weather!.candidate.transcript!.entries[1] as {
      result: string;
      truncatedFrom?: number;
    };
    expect(forecast.result).toHaveLength(200);
    expect(forecast.truncatedFrom).toBeGreaterThan(3000);
    expect(judged.find((u) => u.includes("weather"))).toContain(
      `[… truncated: showing the first 200 of ${forecast.truncatedFrom} characters]`,
    );

    // The failing live eval shows its run in the terminal and in Markdown; HTML shows every run, escaped.
    expect(run.stdout).toMatch(
      /transcript \(server calendar, agent claude-sonnet-4-6 \(anthropic\), 2 of 10 turns\):\n\s+user: Book a meeting with Alice next Tuesday at 2pm\.\n\s+tool create_event \{"title":"Meeting with Alice".*→ Created event evt_042/,
    );
    expect(run.stdout).toMatch(/final reply: Booked for Tuesday 14:00\./);
    const md = await ws.read("out/report.md");
    expect(md).toContain(
      "**Transcript (server calendar, agent claude-sonnet-4-6 (anthropic), 2 of 10 turns)**",
    );
    expect(md).toMatch(
      /Tool call 1: create_event \{"title":"Meeting with Alice"[^\n]*\nTool result 1:\nCreated event evt_042/,
    );
    const html = await ws.read("out/report.html");
    expect(html).toContain("<h4>Transcript</h4>");
    expect(html).toContain("Created event evt_042 &quot;Meeting with Alice&quot;");
    expect(html).toContain("Tool call 1: get_weather");
  });

  test("over Streamable HTTP: the CLI reaches a server on 127.0.0.1", async ({
    onTestFinished,
  }) => {
    const mcp = await startMcpTestHttpServer();
    onTestFinished(() => mcp.close());
    const ws = await makeWorkspace(onTestFinished);
    const judge = await startFakeJudge(onTestFinished, {
      respond: scriptAgents({ agent: bookAgent }),
    });
    await ws.write("suite.yaml", SUITE(`  calendar: { url: "${mcp.url}" }`));
    const run = await cli(
      ws,
      ["eval", "--config", "suite.yaml", "--reporter", "json", "--output", "report.json"],
      judge.env,
    );
    expect(run.code).toBe(0);
    const report = await ws.readReport("report.json");
    expect(report.results.map((r) => [r.status, r.candidate.transcript?.stop])).toEqual([
      ["passed", "final"],
      ["passed", "final"],
    ]);
    expect(mcp.headers.length).toBeGreaterThan(0);
  });

  test("a server that crashes mid-run: that eval fails with the error and the server's stderr, exit 1; the other passes", async ({
    onTestFinished,
  }) => {
    const ws = await makeWorkspace(onTestFinished);
    const judge = await startFakeJudge(onTestFinished, {
      respond: scriptAgents({ agent: bookAgent }),
    });
    await ws.write(
      "suite.yaml",
      SUITE(
        `${server("calendar", { MCP_TEST_CRASH_TOOL: "create_event" })}\n${server("other")}`,
      ).replace(/(weather with a forecast\n\s+server: )calendar/, "$1other"),
    );
    const run = await cli(
      ws,
      [
        "eval",
        "--config",
        "suite.yaml",
        "--reporter",
        "pretty,json",
        "--output",
        "report.json",
        "--no-color",
      ],
      judge.env,
    );
    expect(run.code).toBe(1);
    const report = await ws.readReport("report.json");
    expect(report.results[0]).toMatchObject({
      status: "failed",
      reason: expect.stringMatching(
        /^live run failed: server "calendar" exited .*during tool call "create_event"$/,
      ),
    });
    expect(report.results[0]!.candidate.serverStderr).toContain(
      "fatal: the calendar backend crashed",
    );
    expect(report.results[1]!.status).toBe("passed");
    expect(run.stdout).toMatch(
      /server stderr \(last lines\):\n(\s+.*\n)*\s+fatal: the calendar backend crashed while running create_event\n/,
    );
  });

  test("without a key: live evals defer with the reason, exit 0, and no server is started", async ({
    onTestFinished,
  }) => {
    const ws = await makeWorkspace(onTestFinished);
    const started = path.join(ws.dir, "started");
    await ws.write("suite.yaml", SUITE(server("calendar", { MCP_TEST_STARTED_FILE: started })));
    const run = await cli(ws, ["eval", "--config", "suite.yaml", "--reporter", "json"]);
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as { results: { status: string; note: string }[] };
    expect(report.results.map((r) => [r.status, r.note])).toEqual([
      ["deferred", "no judge key: set ANTHROPIC_API_KEY to grade for real"],
      ["deferred", "no judge key: set ANTHROPIC_API_KEY to grade for real"],
    ]);
    expect(
      await stat(started).then(
        () => true,
        () => false,
      ),
    ).toBe(false);
  });

  test("eval --explain shows each live eval's server and the agent's call budget, and starts nothing", async ({
    onTestFinished,
  }) => {
    const ws = await makeWorkspace(onTestFinished);
    const judge = await startFakeJudge(onTestFinished);
    const started = path.join(ws.dir, "started");
    await ws.write(
      "suite.yaml",
      SUITE(server("calendar", { MCP_TEST_STARTED_FILE: started })).replace(
        "agent: { max_result_chars: 200 }",
        "agent: { model: claude-haiku-4-5, max_turns: 4, timeout_seconds: 90 }",
      ),
    );
    const run = await cli(ws, ["eval", "--explain", "--config", "suite.yaml"], judge.env);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(
      `candidate: live agent run against server "calendar" (stdio: ${process.execPath} --import`,
    );
    expect(run.stdout).toContain(
      "agent: claude-haiku-4-5 (anthropic), up to 4 turns (model calls), 90 s time limit; tool calls time out after 60 s",
    );
    expect(run.stdout).toMatch(/books the meeting[\s\S]*judge calls: 1, ~[\d,]+ input/);
    expect(run.stdout).toContain(
      "Live runs: up to 8 agent model calls (the sum of their turn limits).",
    );
    expect(judge.api.requests).toHaveLength(0);
    expect(
      await stat(started).then(
        () => true,
        () => false,
      ),
    ).toBe(false);
  });

  test("the README's example (examples/live-agent.yaml and its MCP server) works from the repository", async ({
    onTestFinished,
  }) => {
    const ws = await makeWorkspace(onTestFinished);
    const agent: AgentScript = (request, turn) =>
      agentPrompt(request).startsWith("Book")
        ? callThenAnswer(
            {
              name: "create_event",
              input: { title: "Meeting with Alice", day: "Tuesday", time: "14:00" },
            },
            "Done: Meeting with Alice, Tuesday 14:00 (evt_002).",
          )(request, turn)
        : callThenAnswer(
            { name: "create_event", input: { title: "Dentist", day: "Monday", time: "09:30" } },
            "Monday 09:30 is taken by the team standup; want another time?",
          )(request, turn);
    const judge = await startFakeJudge(onTestFinished, { respond: scriptAgents({ agent }) });
    const run = await cli(
      ws,
      ["eval", "--config", path.join(REPO, "examples/live-agent.yaml"), "--reporter", "json"],
      judge.env,
    );
    expect(run.stderr).not.toMatch(/error/i);
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as {
      results: {
        status: string;
        candidate: {
          transcript: { entries: { kind: string; result?: string; isError?: boolean }[] };
        };
      }[];
    };
    expect(report.results.map((r) => r.status)).toEqual(["passed", "passed"]);
    expect(report.results[0]!.candidate.transcript.entries[1]).toMatchObject({
      result: "Created evt_002: Meeting with Alice, Tuesday 14:00",
      isError: false,
    });
    expect(report.results[1]!.candidate.transcript.entries[1]).toMatchObject({
      result: "Monday 09:30 is taken by evt_001 (Team standup)",
      isError: true,
    });
  });
});

describe("a live run in the run history", SLOW, () => {
  test("is stored with its structured transcript, secrets redacted", async ({ onTestFinished }) => {
    const { createTestDatabase } = await import("../support/test-database");
    const { createPrismaClient } = await import("../../lib/store/connection");
    const db = await createTestDatabase();
    onTestFinished(() => db.close());
    const prisma = createPrismaClient(db.url);
    onTestFinished(() => prisma.$disconnect());
    const ws = await makeWorkspace(onTestFinished);
    const judge = await startFakeJudge(onTestFinished, {
      respond: scriptAgents({ agent: bookAgent }),
    });
    await ws.write("suite.yaml", SUITE(server("calendar")));

    const run = await cli(ws, ["eval", "--config", "suite.yaml"], {
      ...judge.env,
      DATABASE_URL: db.url,
    });
    expect(run.code, run.stderr).toBe(0);
    const runId = /Storing run ([0-9a-f-]{36})/.exec(run.stderr)?.[1];
    expect(runId).toBeDefined();
    const rows = await prisma.evalResultRow.findMany({
      where: { runId: runId! },
      orderBy: { evalName: "asc" },
    });
    expect(rows.map((r) => [r.evalName, r.status])).toEqual([
      ["books the meeting", "passed"],
      ["weather with a forecast", "passed"],
    ]);
    const stored = rows[0]!.data as {
      candidate: {
        source: string;
        transcript?: { steps: { kind: string; name?: string }[]; stop: string };
      };
    };
    expect(stored.candidate.source).toBe("live");
    expect(stored.candidate.transcript?.stop).toBe("final");
    expect(JSON.stringify(stored.candidate.transcript)).toContain("create_event");
    expect(JSON.stringify(rows.map((r) => r.data))).not.toContain("SECRETSECRETSECRET");
  });
});
