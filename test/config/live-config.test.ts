import { describe, expect, it } from "vitest";
import { loadSuite } from "../../lib/config/load-suite";

// The live-run part of the language: servers with their timeouts, the agent:
// block (suite-wide and per eval), matrix.agents, and the load-time errors
// for settings that would silently do nothing.

const SERVERS = "servers:\n  calendar: { command: node, args: [server.mjs] }\n";

function errors(text: string): string[] {
  const result = loadSuite({ file: "s.yaml", text });
  return result.ok ? [] : result.issues.map((i) => `${i.line}:${i.column} ${i.message}`);
}

function load(text: string) {
  const result = loadSuite({ file: "s.yaml", text });
  if (!result.ok) throw new Error(JSON.stringify(result.issues));
  return result.value;
}

describe("live runs in the language", () => {
  it("resolves the agent: defaults, then the suite's block, then the eval's, field by field", () => {
    const suite = load(
      `${SERVERS}agent: { model: claude-haiku-4-5, max_turns: 4, system: "Be brief." }\nevals:\n  - { name: a, server: calendar, prompt: p, rubric: r }\n  - { name: b, server: calendar, prompt: p, rubric: r, agent: { max_turns: 2, timeout_seconds: 30, max_result_chars: 500 } }\n  - { name: c, response: fixed, rubric: r }\n`,
    );
    expect(suite.evals[0]!.agent).toEqual({
      model: "claude-haiku-4-5",
      maxTurns: 4,
      timeoutSeconds: 300,
      maxTokens: 2048,
      system: "Be brief.",
      maxResultChars: 2000,
    });
    expect(suite.evals[1]!.agent).toEqual({
      model: "claude-haiku-4-5",
      maxTurns: 2,
      timeoutSeconds: 30,
      maxTokens: 2048,
      system: "Be brief.",
      maxResultChars: 500,
    });
    expect(suite.evals[2]!.agent.model).toBe("claude-haiku-4-5");
  });

  it("resolves servers with their start and tool-call timeouts", () => {
    const suite = load(
      `servers:\n  a: { command: node, start_timeout_seconds: 5 }\n  b: { url: "http://127.0.0.1:9/mcp", headers: { x-k: v }, tool_timeout_seconds: 2.5 }\nevals:\n  - { name: e, response: x, rubric: r }\n`,
    );
    expect(suite.servers).toEqual({
      a: {
        kind: "stdio",
        command: "node",
        args: [],
        env: {},
        cwd: undefined,
        startTimeoutSeconds: 5,
        toolTimeoutSeconds: 60,
      },
      b: {
        kind: "http",
        url: "http://127.0.0.1:9/mcp",
        headers: { "x-k": "v" },
        startTimeoutSeconds: 30,
        toolTimeoutSeconds: 2.5,
      },
    });
  });

  it("takes matrix.agents alone or with the other axes", () => {
    const suite = load(
      `${SERVERS}evals:\n  - { name: e, server: calendar, prompt: p, rubric: r, matrix: { agents: [claude-haiku-4-5, claude-sonnet-4-6] } }\n`,
    );
    expect(suite.evals[0]!.matrix).toEqual({ agents: ["claude-haiku-4-5", "claude-sonnet-4-6"] });
  });

  it("rejects live settings on a fixed response, where they would do nothing, at their line", () => {
    expect(
      errors(
        `evals:\n  - name: e\n    response: fixed\n    rubric: r\n    agent: { max_turns: 3 }\n`,
      ),
    ).toEqual([
      "5:12 agent: configures a live run, but this eval grades a fixed response; remove response: to run the prompt as an agent",
    ]);
    expect(
      errors(
        `evals:\n  - name: e\n    response: fixed\n    rubric: r\n    matrix:\n      agents: [claude-haiku-4-5]\n`,
      ),
    ).toEqual([
      "6:15 matrix.agents varies the live agent's model, but this eval grades a fixed response; use matrix.models to vary the judge",
    ]);
  });

  it("rejects a live eval with no prompt to run", () => {
    expect(errors(`${SERVERS}evals:\n  - name: e\n    server: calendar\n    rubric: r\n`)).toEqual([
      '4:5 eval "e" runs live against server "calendar" but has no prompt: add prompt: (or matrix.prompts)',
    ]);
    expect(
      errors(
        `${SERVERS}evals:\n  - { name: e, server: calendar, rubric: r, matrix: { prompts: [p] } }\n`,
      ),
    ).toEqual([]);
  });

  it("rejects out-of-range limits and unknown agent fields", () => {
    expect(
      errors(`agent: { max_turns: 0 }\nevals:\n  - { name: e, response: x, rubric: r }\n`),
    ).toEqual(["1:21 max_turns must be at least 1"]);
    expect(
      errors(
        `${SERVERS.replace("args: [server.mjs]", "tool_timeout_seconds: 0")}evals:\n  - { name: e, response: x, rubric: r }\n`,
      ),
    ).toEqual(["2:52 tool_timeout_seconds must be greater than 0"]);
    expect(
      errors(`agent: { max_turn: 3 }\nevals:\n  - { name: e, response: x, rubric: r }\n`)[0],
    ).toMatch(/max_turn.*did you mean "max_turns"/);
  });
});
