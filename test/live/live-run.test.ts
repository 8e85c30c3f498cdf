import { describe, expect, test } from "vitest";
import type { FakeRequest } from "../support/fake-messages-api";
import {
  agentPrompt,
  isJudgeRequest,
  judgedCandidate,
  offeredTools,
  scriptAgents,
  type AgentScript,
} from "../support/agent-script";
import { startMcpTestHttpServer } from "../support/mcp-test-server";
import {
  AGENT_MODEL,
  isRunning,
  resultNamed,
  runLive,
  startStandIn,
  stdioServer,
} from "./live-harness";

// A live eval end to end: the prompt runs as a Claude agent (the stand-in,
// scripted to call an MCP tool and then answer) against our test server, over
// stdio and over Streamable HTTP; the transcript is what the judge grades.

const BOOK = "Book a meeting with Alice next Tuesday at 2pm and confirm it.";
const WEATHER = "What is the weather in Paris?";

const agent: AgentScript = (request, turn) => {
  const prompt = agentPrompt(request);
  if (prompt === BOOK)
    return turn === 0
      ? {
          toolCalls: [
            {
              name: "create_event",
              input: { title: "Meeting with Alice", day: "Tuesday", time: "14:00" },
            },
          ],
        }
      : { text: "Booked: Tuesday at 14:00 with Alice (evt_042)." };
  if (prompt === WEATHER)
    return turn === 0
      ? { text: "Let me check.", toolCalls: [{ name: "get_weather", input: { city: "Paris" } }] }
      : { text: "It is 18C and clear in Paris." };
  throw new Error(`unscripted prompt ${prompt}`);
};

const SUITE = (servers: string) => `
servers:
${servers}
evals:
  - name: books the meeting
    server: calendar
    prompt: "${BOOK}"
    rubric:
      threshold: 0.8
      criteria:
        - name: booked the right day
          description: "Created an event on the correct Tuesday."
        - name: confirmed to the user
          description: "The final reply confirms the booking."
  - name: weather answered
    server: calendar
    prompt: "${WEATHER}"
    rubric: "States the temperature the tool reported."
`;

const agentRequests = (requests: FakeRequest[]) => requests.filter((r) => !isJudgeRequest(r));
const judgeRequests = (requests: FakeRequest[]) => requests.filter(isJudgeRequest);
const pidIn = (text: string) => Number(/server pid (\d+)/.exec(text)?.[1]);

// Each test starts server processes through tsx: slow on a busy two-core machine.
describe.concurrent("a live agent run against an MCP server", { timeout: 120_000 }, () => {
  test("over stdio: the transcript (prompt, tool call, result, final reply) is the candidate, and it is graded", async ({
    onTestFinished,
  }) => {
    const api = await startStandIn(onTestFinished, scriptAgents({ agent }));
    const report = await runLive(SUITE(stdioServer("calendar")), { api });

    const booked = resultNamed(report, "books the meeting");
    expect(booked.status).toBe("passed");
    expect(booked.candidate).toMatchObject({
      source: "live",
      server: "calendar",
      prompt: BOOK,
      response: "Booked: Tuesday at 14:00 with Alice (evt_042).",
    });
    const transcript = booked.candidate.transcript!;
    expect(transcript).toMatchObject({
      server: "calendar",
      model: AGENT_MODEL,
      stop: "final",
      turns: 2,
      maxTurns: 10,
    });
    expect(transcript.entries).toEqual([
      { kind: "user", text: BOOK },
      {
        kind: "tool_call",
        name: "create_event",
        arguments: { title: "Meeting with Alice", day: "Tuesday", time: "14:00" },
        result: expect.stringMatching(
          /^Created event evt_042 "Meeting with Alice" on Tuesday at 14:00 \(server pid \d+\)\.$/,
        ),
        isError: false,
        durationMs: expect.any(Number),
      },
      { kind: "final", text: "Booked: Tuesday at 14:00 with Alice (evt_042)." },
    ]);
    expect(booked.candidate.agent).toMatchObject({ model: AGENT_MODEL, turns: 2, maxTurns: 10 });
    expect(booked.candidate.agent!.calls).toHaveLength(2);
    expect(booked.candidate.agent!.usage.input).toBeGreaterThan(0);

    // The judge read the whole run, in order, for each criterion.
    const bookingJudged = judgeRequests(api.requests)
      .map(judgedCandidate)
      .filter((c) => c.includes(BOOK));
    expect(bookingJudged).toHaveLength(2);
    expect(bookingJudged[0]).toMatch(
      /^User:\nBook a meeting[^\n]*\n\nTool call 1: create_event \{"title":"Meeting with Alice","day":"Tuesday","time":"14:00"\}\nTool result 1:\nCreated event evt_042[^\n]*\n\nAssistant \(final reply\):\nBooked: Tuesday at 14:00 with Alice \(evt_042\)\.$/,
    );

    // Text the agent wrote beside a tool call is kept, and the free-form eval passed too.
    const weather = resultNamed(report, "weather answered");
    expect(weather.status).toBe("passed");
    expect(weather.candidate.transcript!.entries.map((e) => e.kind)).toEqual([
      "user",
      "assistant",
      "tool_call",
      "final",
    ]);

    // One server process served both evals, and it was closed when the run ended.
    const pid = pidIn((transcript.entries[1] as { result: string }).result);
    expect(pidIn((weather.candidate.transcript!.entries[2] as { result: string }).result)).toBe(
      pid,
    );
    expect(isRunning(pid)).toBe(false);
  });

  test("the agent's requests offer the server's tools, carry cache breakpoints and get the tool results back", async ({
    onTestFinished,
  }) => {
    const api = await startStandIn(onTestFinished, scriptAgents({ agent }));
    await runLive(SUITE(stdioServer("calendar")), { api });
    const booking = agentRequests(api.requests).filter((r) => agentPrompt(r) === BOOK);
    expect(booking).toHaveLength(2);
    for (const request of booking) {
      expect(request.body.model).toBe(AGENT_MODEL);
      expect(offeredTools(request)).toEqual(["get_weather", "create_event"]);
      const tools = request.body.tools as Array<Record<string, unknown>>;
      // The tool list is a cached prefix; "$schema" from the server's zod is not sent.
      expect(tools.at(-1)!.cache_control).toEqual({ type: "ephemeral" });
      expect(JSON.stringify(tools)).not.toContain("$schema");
      expect(request.body).not.toHaveProperty("temperature");
      const messages = request.body.messages as Array<{
        role: string;
        content: Array<Record<string, unknown>>;
      }>;
      // Exactly one breakpoint in the conversation: on the last block of the last turn.
      expect(messages.at(-1)!.content.at(-1)!.cache_control).toEqual({ type: "ephemeral" });
      expect(JSON.stringify(messages.slice(0, -1))).not.toContain("cache_control");
    }
    const second = booking[1]!.body.messages as Array<{
      role: string;
      content: Array<Record<string, unknown>>;
    }>;
    expect(second.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
    expect(second[1]!.content[0]).toMatchObject({ type: "tool_use", name: "create_event" });
    expect(second[2]!.content[0]).toMatchObject({
      type: "tool_result",
      tool_use_id: second[1]!.content[0]!.id,
      content: expect.stringContaining("Created event evt_042"),
    });
  });

  test("over Streamable HTTP on 127.0.0.1, with the configured headers", async ({
    onTestFinished,
  }) => {
    const server = await startMcpTestHttpServer();
    onTestFinished(() => server.close());
    const api = await startStandIn(onTestFinished, scriptAgents({ agent }));
    const servers = `  calendar:\n    url: ${server.url}\n    headers:\n      x-calendar-tenant: acme\n`;
    const report = await runLive(SUITE(servers), { api });

    expect(report.results.map((r) => r.status)).toEqual(["passed", "passed"]);
    const entries = resultNamed(report, "books the meeting").candidate.transcript!.entries;
    expect(entries[1]).toMatchObject({
      kind: "tool_call",
      name: "create_event",
      result: expect.stringContaining("Created event evt_042"),
    });
    expect(server.headers.length).toBeGreaterThan(0);
    expect(server.headers.every((h) => h["x-calendar-tenant"] === "acme")).toBe(true);
  });

  test("matrix.agents varies the agent model; judge models in the same agent cell share one run", async ({
    onTestFinished,
  }) => {
    const api = await startStandIn(onTestFinished, scriptAgents({ agent }));
    const yaml = `
servers:
${stdioServer("calendar")}
evals:
  - name: weather
    server: calendar
    prompt: "${WEATHER}"
    rubric: "States the temperature the tool reported."
    matrix:
      agents: [claude-haiku-4-5, claude-sonnet-4-6]
      models: [claude-opus-4-1, claude-opus-4-5]
`;
    const report = await runLive(yaml, { api });
    expect(report.results.map((r) => r.name)).toEqual([
      "weather [agent=claude-haiku-4-5, model=claude-opus-4-1]",
      "weather [agent=claude-haiku-4-5, model=claude-opus-4-5]",
      "weather [agent=claude-sonnet-4-6, model=claude-opus-4-1]",
      "weather [agent=claude-sonnet-4-6, model=claude-opus-4-5]",
    ]);
    expect(report.results.map((r) => r.candidate.transcript!.model)).toEqual([
      "claude-haiku-4-5",
      "claude-haiku-4-5",
      "claude-sonnet-4-6",
      "claude-sonnet-4-6",
    ]);
    // Two runs of two turns each, not four: a judge-model cell reuses its agent cell's run.
    const agentModels = agentRequests(api.requests).map((r) => r.body.model);
    expect(agentModels.sort()).toEqual([
      "claude-haiku-4-5",
      "claude-haiku-4-5",
      "claude-sonnet-4-6",
      "claude-sonnet-4-6",
    ]);
    expect(
      judgeRequests(api.requests)
        .map((r) => r.body.model)
        .sort(),
    ).toEqual(["claude-opus-4-1", "claude-opus-4-1", "claude-opus-4-5", "claude-opus-4-5"]);
  });

  test("evidence spans are checked against the transcript, tool results included", async ({
    onTestFinished,
  }) => {
    const api = await startStandIn(
      onTestFinished,
      scriptAgents({
        agent,
        judge: (request) =>
          request.user.includes('the criterion "booked the right day" only')
            ? {
                verdict: {
                  reasoning: "the tool created it",
                  score: 1,
                  evidence: 'Created event evt_042 "Meeting with Alice" on Tuesday',
                },
              }
            : {
                verdict: {
                  reasoning: "confirmed",
                  score: 1,
                  evidence: "Your meeting is confirmed for Wednesday",
                },
              },
      }),
    );
    const yaml = SUITE(stdioServer("calendar")).replace(
      "threshold: 0.8\n",
      "threshold: 0.8\n      require_evidence: true\n",
    );
    const booked = resultNamed(await runLive(yaml, { api }), "books the meeting");
    expect(booked.criteria.map((c) => [c.name, c.evidenceFound])).toEqual([
      ["booked the right day", true],
      ["confirmed to the user", false],
    ]);
    expect(booked.status).toBe("failed");
    expect(booked.gates.join(" ")).toMatch(/evidence/);
  });
});
