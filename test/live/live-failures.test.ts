import { mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { createServer } from "node:net";
import { describe, expect, test } from "vitest";
import { allowAllServers, allowListedServers } from "../../lib/live/allow-servers";
import { createServerPool } from "../../lib/live/server-pool";
import { resolveSuiteServers } from "./resolve-servers";
import {
  agentPrompt,
  callThenAnswer,
  isJudgeRequest,
  judgedCandidate,
  scriptAgents,
} from "../support/agent-script";
import { resultNamed, runLive, startStandIn, stdioServer, type OnFinished } from "./live-harness";

// When a live run cannot happen, or breaks: each deferral says which case it
// was, a server that dies mid-run fails only its own eval, and the limits
// (turns, time, tool calls) end a run in a way the report shows.

const weatherAgent = callThenAnswer(
  { name: "get_weather", input: { city: "Paris" } },
  "It is 18C and clear in Paris.",
);

function liveEval(name: string, server: string, extra = ""): string {
  return `  - name: ${name}\n    server: ${server}\n    prompt: "What is the weather in Paris?"\n    rubric: "States the temperature."\n${extra}`;
}

async function tempDir(onFinished: OnFinished): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), "rubric-live-"));
  onFinished(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const exists = (file: string) =>
  stat(file).then(
    () => true,
    () => false,
  );

// Each test starts server processes through tsx: slow on a busy two-core machine.
describe.concurrent("live runs that cannot run or break", { timeout: 120_000 }, () => {
  test("deferrals name their cause: no key, unknown server, unreachable (cannot start, no such command, closed port), not allowed", async ({
    onTestFinished,
  }) => {
    const dir = await tempDir(onTestFinished);
    const api = await startStandIn(onTestFinished, scriptAgents({ agent: weatherAgent }));
    const port = await closedPort();
    const yaml = `
servers:
${stdioServer("broken", { MCP_TEST_FAIL_START: "1" })}  missing:
    command: /nonexistent/mcp-server
  gone:
    url: http://127.0.0.1:${port}/mcp
${stdioServer("calendar", { MCP_TEST_STARTED_FILE: path.join(dir, "started") })}
evals:
${liveEval("unknown", "nowhere")}${liveEval("cannot start", "broken")}${liveEval("no such command", "missing")}${liveEval("closed port", "gone")}`;
    const report = await runLive(yaml, { api });
    const note = (name: string) => {
      const result = resultNamed(report, name);
      expect(result.status).toBe("deferred");
      return result.note;
    };
    expect(note("unknown")).toBe('server "nowhere" is unknown (not in servers:)');
    expect(note("cannot start")).toMatch(
      /^server "broken" is unreachable: could not start ".*mcp-test-server\.ts": .*; stderr: error: cannot open the calendar database/,
    );
    expect(note("no such command")).toMatch(
      /^server "missing" is unreachable: could not start "\/nonexistent\/mcp-server": .*ENOENT/,
    );
    expect(note("closed port")).toMatch(
      new RegExp(
        `^server "gone" is unreachable: could not reach http://127\\.0\\.0\\.1:${port}/mcp: `,
      ),
    );
    expect(api.requests).toHaveLength(0);

    // Without a key nothing runs at all, and no server is started for nothing.
    const noKey = await runLive(
      `servers:\n${stdioServer("calendar", { MCP_TEST_STARTED_FILE: path.join(dir, "started") })}evals:\n${liveEval("no key", "calendar")}`,
      {
        api,
        judgeUnavailable: "no judge key: set ANTHROPIC_API_KEY to grade for real",
      },
    );
    expect(noKey.results[0]).toMatchObject({
      status: "deferred",
      note: "no judge key: set ANTHROPIC_API_KEY to grade for real",
    });
    expect(await exists(path.join(dir, "started"))).toBe(false);

    // A dashboard allows only the servers its own configuration lists, as listed.
    const listed = await runLive(
      `servers:\n${stdioServer("calendar", { MCP_TEST_STARTED_FILE: path.join(dir, "started") })}evals:\n${liveEval("not allowed", "calendar")}`,
      {
        api,
        allowServer: allowListedServers({
          calendar: {
            kind: "stdio",
            command: "node",
            args: ["calendar.mjs"],
            env: {},
            startTimeoutSeconds: 30,
            toolTimeoutSeconds: 60,
          },
        }),
      },
    );
    expect(listed.results[0]).toMatchObject({
      status: "deferred",
      note: 'server "calendar" is not allowed here: its configuration differs from the one this deployment allows under that name',
    });
    expect(await exists(path.join(dir, "started"))).toBe(false);
    expect(api.requests).toHaveLength(0);
  });

  test("a server that dies mid-run fails that eval with a clear error and its stderr; the others pass", async ({
    onTestFinished,
  }) => {
    const api = await startStandIn(
      onTestFinished,
      scriptAgents({
        agent: (request, turn) =>
          agentPrompt(request).includes("Book")
            ? callThenAnswer(
                { name: "create_event", input: { title: "x", day: "Tuesday", time: "14:00" } },
                "Booked.",
              )(request, turn)
            : weatherAgent(request, turn),
      }),
    );
    const yaml = `
servers:
${stdioServer("flaky", { MCP_TEST_CRASH_TOOL: "create_event" })}${stdioServer("calendar")}
evals:
  - name: books on the flaky server
    server: flaky
    prompt: "Book a meeting on Tuesday."
    rubric: "Confirms the booking."
${liveEval("weather on the good server", "calendar")}`;
    const report = await runLive(yaml, { api });
    const crashed = resultNamed(report, "books on the flaky server");
    expect(crashed.status).toBe("failed");
    expect(crashed.score).toBeNull();
    expect(crashed.reason).toMatch(
      /^live run failed: server "flaky" exited \(its process closed the connection\): .*, during tool call "create_event"$/,
    );
    expect(crashed.candidate.serverStderr).toContain(
      "fatal: the calendar backend crashed while running create_event",
    );
    expect(crashed.candidate.transcript).toMatchObject({ stop: "error", turns: 1 });
    expect(crashed.candidate.transcript!.entries.at(-1)).toMatchObject({
      kind: "tool_call",
      name: "create_event",
      isError: true,
    });
    expect(crashed.judgeCalls).toBe(0);
    expect(resultNamed(report, "weather on the good server").status).toBe("passed");
  });

  test("a server that died is started afresh for the evals that start after it; the run closes it", async () => {
    const { flaky } = resolveSuiteServers(
      `servers:\n${stdioServer("flaky", { MCP_TEST_CRASH_TOOL: "create_event" })}`,
    );
    const pool = createServerPool({
      baseDir: process.cwd(),
      allowServer: allowAllServers,
      clientVersion: "test",
    });
    try {
      const first = await pool.acquire({ name: "flaky", config: flaky! });
      if (!first.ok) throw new Error(first.reason);
      expect(await pool.acquire({ name: "flaky", config: flaky! })).toBe(first); // shared while it lives
      const signal = new AbortController().signal;
      expect(
        await first.connection.callTool({
          name: "create_event",
          arguments: { title: "t", day: "Tuesday", time: "14:00" },
          signal,
        }),
      ).toMatchObject({ kind: "server_gone" });
      // An eval still bound to the dead connection fails at its next call; a new one gets a new process.
      expect(
        await first.connection.callTool({
          name: "get_weather",
          arguments: { city: "Paris" },
          signal,
        }),
      ).toEqual({
        kind: "server_gone",
        message: "had already exited earlier in the run (its process closed the connection)",
      });
      const second = await pool.acquire({ name: "flaky", config: flaky! });
      if (!second.ok) throw new Error(second.reason);
      expect(second.connection).not.toBe(first.connection);
      expect(
        await second.connection.callTool({
          name: "get_weather",
          arguments: { city: "Paris" },
          signal,
        }),
      ).toMatchObject({ kind: "result", isError: false });
    } finally {
      await pool.closeAll();
    }
    expect(await pool.acquire({ name: "flaky", config: flaky! })).toEqual({
      ok: false,
      reason: 'server "flaky" was not started: the run has ended',
    });
  });

  test("the turn limit ends a run that keeps calling tools; the transcript says so and is graded", async ({
    onTestFinished,
  }) => {
    const api = await startStandIn(
      onTestFinished,
      scriptAgents({
        agent: () => ({ toolCalls: [{ name: "get_weather", input: { city: "Paris" } }] }),
        judge: () => ({ verdict: { reasoning: "no final answer", score: 0 } }),
      }),
    );
    const yaml = `servers:\n${stdioServer("calendar")}agent:\n  max_turns: 3\nevals:\n${liveEval("loops", "calendar")}`;
    const result = (await runLive(yaml, { api })).results[0]!;
    expect(result.status).toBe("failed");
    expect(result.candidate.transcript).toMatchObject({ stop: "max_turns", turns: 3, maxTurns: 3 });
    expect(result.candidate.transcript!.entries.filter((e) => e.kind === "tool_call")).toHaveLength(
      3,
    );
    expect(result.candidate.response).toBeUndefined();
    expect(api.requests.filter((r) => !isJudgeRequest(r))).toHaveLength(3);
    expect(judgedCandidate(api.requests.find(isJudgeRequest)!)).toMatch(
      /\[The agent stopped: its turn limit of 3 model calls was reached before a final reply\.\]$/,
    );
  });

  test("a tool call past tool_timeout_seconds is a tool error the agent sees; the time limit stops the run", async ({
    onTestFinished,
  }) => {
    const slow = { name: "get_weather", input: { city: "Paris", delay_ms: 4000 } };
    const api = await startStandIn(
      onTestFinished,
      scriptAgents({
        agent: callThenAnswer(slow, "The weather service is slow; I could not get the weather."),
      }),
    );
    const yaml = `
servers:
${stdioServer("calendar", {}, "\n    tool_timeout_seconds: 0.5")}${stdioServer("patient")}
evals:
${liveEval("tool timeout", "calendar")}${liveEval("time limit", "patient", "    agent: { timeout_seconds: 1.5 }\n")}`;
    const report = await runLive(yaml, { api });
    const toolTimeout = resultNamed(report, "tool timeout");
    expect(toolTimeout.candidate.transcript!.entries[1]).toMatchObject({
      kind: "tool_call",
      isError: true,
      result: "the tool call timed out after 0.5 s",
    });
    expect(toolTimeout.candidate.transcript).toMatchObject({ stop: "final", turns: 2 });
    const timeLimit = resultNamed(report, "time limit");
    expect(timeLimit.candidate.transcript).toMatchObject({
      stop: "timeout",
      stopNote: "The agent stopped: its time limit of 1.5 s was reached before a final reply.",
    });
    expect(timeLimit.status).toBe("passed"); // graded as it stands: the scripted judge passes anything
  });

  test("an agent model call that fails for good fails the eval, naming the API error", async ({
    onTestFinished,
  }) => {
    const api = await startStandIn(onTestFinished, (request) =>
      isJudgeRequest(request)
        ? { verdict: { reasoning: "ok", score: 1 } }
        : {
            status: 400,
            body: {
              type: "error",
              error: { type: "invalid_request_error", message: "tools.0.input_schema: bad schema" },
            },
          },
    );
    const result = (
      await runLive(
        `servers:\n${stdioServer("calendar")}evals:\n${liveEval("bad request", "calendar")}`,
        { api },
      )
    ).results[0]!;
    expect(result.status).toBe("failed");
    expect(result.reason).toBe(
      "live run failed: the agent's model call failed: request: tools.0.input_schema: bad schema (1 attempt, last status 400)",
    );
  });
});
