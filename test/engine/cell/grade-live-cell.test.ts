import { describe, expect, it } from "vitest";
import type { LiveOutcome, LivePort, LiveRequest } from "../../../lib/engine/ports/live-port";
import { runSuite } from "../../../lib/engine/run-suite";
import type { Transcript } from "../../../lib/engine/results/transcript";
import type { Report } from "../../../lib/engine/results/report";
import { always, createFakeJudge, type FakeJudge } from "../../support/fake-judge";
import { suiteFrom, flatPrice } from "../../support/run-yaml";

// The engine's side of live candidates, through runSuite with a fake live
// port (no processes, no HTTP): what it grades, how it prices and schedules
// agent calls, how it reports a port's deferral, error or skip.

const SERVERS = "servers:\n  calendar: { command: node, args: [server.mjs] }\n";
const LIVE_EVAL = (extra = "") =>
  `  - name: books\n    server: calendar\n    prompt: "Book it."\n    rubric: "Confirms the booking."\n${extra}`;

function transcriptFor(request: LiveRequest): Transcript {
  return {
    server: request.serverName ?? "",
    model: request.agent.model,
    stop: "final",
    turns: 1,
    maxTurns: request.agent.maxTurns,
    entries: [
      { kind: "user", text: request.prompt },
      {
        kind: "tool_call",
        name: "create_event",
        arguments: { day: "Tuesday" },
        result: "Created evt_1",
        isError: false,
        durationMs: 3,
      },
      { kind: "final", text: "Booked evt_1." },
    ],
  };
}

/** A port that makes one scheduled agent call (1000 input, 100 output tokens), then answers with `outcome` or a transcript. */
function fakeLive(
  outcome?: (request: LiveRequest) => LiveOutcome,
): LivePort & { requests: LiveRequest[] } {
  const requests: LiveRequest[] = [];
  return {
    requests,
    async run(request) {
      requests.push(request);
      const usage = { input: 1000, output: 100, cacheRead: 0, cacheWrite: 0 };
      const scheduled = await request.schedule(
        { model: request.agent.model, inputTokens: 1000, maxTokens: request.agent.maxTokens },
        async () => ({ value: "sent", usage }),
      );
      const calls = [
        { model: request.agent.model, attempts: 1, latencyMs: 5, usage, costUsd: null },
      ];
      if (scheduled.skipped) return { kind: "skipped", reason: scheduled.reason, calls: [] };
      return outcome
        ? outcome(request)
        : { kind: "transcript", transcript: transcriptFor(request), calls };
    },
  };
}

async function run(
  yaml: string,
  deps: { judge?: FakeJudge; live?: LivePort; maxCostUsd?: number; usd?: number } = {},
): Promise<Report> {
  return runSuite(
    {
      suite: suiteFrom(yaml),
      defaultModel: "judge-model",
      defaultAgentModel: "agent-model",
      concurrency: 4,
      toolVersion: "test",
      ...(deps.maxCostUsd !== undefined ? { maxCostUsd: deps.maxCostUsd } : {}),
    },
    {
      judge: deps.judge ?? createFakeJudge(always({ score: 1, costUsd: 0.001 })),
      ...(deps.live ? { live: deps.live } : {}),
      now: Date.now,
      priceOf: flatPrice(deps.usd ?? 0.01),
    },
  );
}

describe("live cells in the engine", () => {
  it("grades the rendered transcript and adds the agent's priced calls to the result's cost and usage", async () => {
    const judge = createFakeJudge(always({ score: 1, costUsd: 0.001 }));
    const live = fakeLive();
    const report = await run(`${SERVERS}evals:\n${LIVE_EVAL()}`, { judge, live });
    const result = report.results[0]!;
    expect(result.status).toBe("passed");
    expect(live.requests[0]).toMatchObject({
      serverName: "calendar",
      prompt: "Book it.",
      agent: { model: "agent-model", maxTurns: 10, timeoutSeconds: 300 },
    });
    expect(judge.requests[0]!.candidatePrompt).toContain(
      '<candidate_response>\nUser:\nBook it.\n\nTool call 1: create_event {"day":"Tuesday"}\nTool result 1:\nCreated evt_1\n\nAssistant (final reply):\nBooked evt_1.\n</candidate_response>',
    );
    expect(result.candidate).toMatchObject({
      source: "live",
      server: "calendar",
      prompt: "Book it.",
      response: "Booked evt_1.",
    });
    // flatPrice(0.01) prices 300 output tokens at $0.01: the agent's 100 cost $0.00333.
    const agentCost = 0.01 / 3;
    expect(result.candidate.agent).toMatchObject({
      model: "agent-model",
      turns: 1,
      maxTurns: 10,
      usage: { input: 1000, output: 100 },
    });
    expect(result.candidate.agent!.costUsd).toBeCloseTo(agentCost, 8);
    expect(result.candidate.agent!.calls[0]!.costUsd).toBeCloseTo(agentCost, 8);
    expect(result.costUsd).toBeCloseTo(0.001 + agentCost, 8);
    expect(result.usage.input).toBe(1000);
    expect(result.judgeCalls).toBe(1);
    expect(report.summary.costUsd).toBeCloseTo(0.001 + agentCost, 8);
  });

  it("names matrix cells by agent first, and runs each agent once however many judge models grade it", async () => {
    const live = fakeLive();
    const report = await run(
      `${SERVERS}evals:\n${LIVE_EVAL('    matrix:\n      agents: [a-1, a-2]\n      models: [j-1, j-2]\n      prompts: ["Book it.", "Book it now."]\n')}`,
      { live },
    );
    expect(report.results.map((r) => r.name)).toEqual([
      "books [agent=a-1, model=j-1, prompt=#1]",
      "books [agent=a-1, model=j-1, prompt=#2]",
      "books [agent=a-1, model=j-2, prompt=#1]",
      "books [agent=a-1, model=j-2, prompt=#2]",
      "books [agent=a-2, model=j-1, prompt=#1]",
      "books [agent=a-2, model=j-1, prompt=#2]",
      "books [agent=a-2, model=j-2, prompt=#1]",
      "books [agent=a-2, model=j-2, prompt=#2]",
    ]);
    expect(report.results[0]!.id).toBe("books::agent=a-1::model=j-1::prompt=1");
    expect(live.requests.map((r) => `${r.agent.model} ${r.prompt}`).sort()).toEqual([
      "a-1 Book it now.",
      "a-1 Book it.",
      "a-2 Book it now.",
      "a-2 Book it.",
    ]);
  });

  it("counts a run shared by several judge models once: in the cell that started it, with the others naming it", async () => {
    const live = fakeLive();
    const judge = createFakeJudge(always({ score: 1, costUsd: 0.001 }));
    const report = await run(
      `${SERVERS}evals:\n${LIVE_EVAL("    matrix:\n      models: [j-1, j-2, j-3]\n")}`,
      { judge, live },
    );
    const agentCost = 0.01 / 3;
    expect(live.requests).toHaveLength(1);
    const [first, ...others] = report.results;
    expect(first!.costUsd).toBeCloseTo(0.001 + agentCost, 8);
    expect(first!.usage.input).toBe(1000);
    for (const result of others) {
      expect(result.costUsd).toBeCloseTo(0.001, 8);
      expect(result.usage.input).toBe(0);
      // Each still shows the whole run it graded, and where its cost is counted.
      expect(result.candidate.agent).toMatchObject({
        usage: { input: 1000, output: 100 },
        countedIn: first!.id,
      });
      expect(result.candidate.agent!.costUsd).toBeCloseTo(agentCost, 8);
    }
    expect(first!.candidate.agent!.countedIn).toBeUndefined();
    // Three judge calls and one agent run, not three.
    expect(report.summary.costUsd).toBeCloseTo(3 * 0.001 + agentCost, 8);
    expect(report.summary.usage.input).toBe(1000);
  });

  it("reports the port's deferral as deferred, its error as a failure with no judge call, its skip as skipped", async () => {
    const judge = createFakeJudge(always({ score: 1 }));
    const outcomes: Record<string, LiveOutcome> = {
      "Defer.": {
        kind: "deferred",
        reason:
          'server "calendar" is unreachable: could not start "node server.mjs": spawn node ENOENT',
      },
      "Fail.": {
        kind: "error",
        message: 'server "calendar" exited, during tool call "create_event"',
        serverStderr: "fatal: boom\n",
        calls: [],
      },
      "Skip.": { kind: "skipped", reason: "cancelled", calls: [] },
    };
    const yaml = `${SERVERS}evals:\n${Object.keys(outcomes)
      .map(
        (prompt) =>
          `  - { name: "${prompt}", server: calendar, prompt: "${prompt}", rubric: "x" }\n`,
      )
      .join("")}`;
    const report = await run(yaml, {
      judge,
      live: fakeLive((request) => outcomes[request.prompt]!),
    });
    const [deferred, failed, skipped] = report.results;
    expect(deferred).toMatchObject({
      status: "deferred",
      note: 'server "calendar" is unreachable: could not start "node server.mjs": spawn node ENOENT',
      candidate: { source: "live" },
    });
    expect(failed).toMatchObject({
      status: "failed",
      score: null,
      display: "error",
      reason: 'live run failed: server "calendar" exited, during tool call "create_event"',
      judgeCalls: 0,
      candidate: { source: "live", server: "calendar", serverStderr: "fatal: boom\n" },
    });
    expect(failed!.note).toBeUndefined();
    expect(skipped).toMatchObject({
      status: "skipped",
      skipKind: "cancelled",
      reason: "skipped (cancelled): the run was cancelled before the live agent run could finish",
      note: "the run was cancelled before the live agent run could finish",
    });
    expect(judge.requests).toHaveLength(0);
    expect(report.summary).toMatchObject({ deferred: 1, failed: 1, skipped: 1 });
  });

  it("defers live evals when the caller gives no live port, naming the server", async () => {
    const report = await run(`${SERVERS}evals:\n${LIVE_EVAL()}`);
    expect(report.results[0]).toMatchObject({
      status: "deferred",
      note: 'live agent runs are not enabled here (server "calendar")',
    });
  });

  it("puts agent calls under --max-cost: a refused agent call skips the eval (budget)", async () => {
    const report = await run(`${SERVERS}evals:\n${LIVE_EVAL()}`, {
      live: fakeLive(),
      maxCostUsd: 0.001,
      usd: 0.01,
    });
    expect(report.results[0]).toMatchObject({
      status: "skipped",
      skipKind: "budget",
      reason:
        "skipped (budget): the --max-cost budget was reached before the live agent run could finish",
    });
  });

  it("evaluates when: predicates against the transcript, tool calls included", async () => {
    const judge = createFakeJudge(always({ score: 1 }));
    const yaml = `${SERVERS}evals:\n${LIVE_EVAL().replace('    rubric: "Confirms the booking."\n', "")}    rubric:\n      criteria:\n        - { name: used the tool, description: d, when: { contains: "Tool call 1: create_event" } }\n        - { name: mentions refunds, description: d, when: { contains: refund } }\n`;
    const result = (await run(yaml, { judge, live: fakeLive() })).results[0]!;
    expect(result.criteria.map((c) => [c.name, c.status])).toEqual([
      ["used the tool", "graded"],
      ["mentions refunds", "skipped"],
    ]);
  });
});
