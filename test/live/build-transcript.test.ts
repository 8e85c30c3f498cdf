import { describe, expect, it } from "vitest";
import { createTranscriptBuilder } from "../../lib/live/build-transcript";
import { toAnthropicTools } from "../../lib/live/agent-tools";
import { allowAllServers, allowListedServers } from "../../lib/live/allow-servers";
import { renderTranscript } from "../../lib/engine/results/transcript";
import type { ServerConfig } from "../../lib/config/types";

// The pieces of lib/live that need no process: the transcript (redaction,
// truncation, rendering), tool names the Messages API accepts, the allow-list.

const builder = (maxResultChars = 50) =>
  createTranscriptBuilder({ server: "s", model: "m", maxTurns: 5, maxResultChars });

describe("the transcript", () => {
  it("redacts secrets in the prompt, arguments, results and replies, before anything is cut", () => {
    const t = builder(40);
    t.user("Use my key sk-ant-api03-abcdefghijklmnopqrstuvwxyz to book it.");
    // The key sits across the 40-character cut: redacting first leaves no fragment of it.
    t.toolCall({
      name: "login",
      arguments: { user: "ann", password: "hunter2-hunter2" },
      result: `${"x".repeat(30)} token=ghp_abcdefghijklmnopqrstuvwxyz0123456789`,
      isError: false,
      durationMs: 1,
    });
    t.final("Done. Bearer abcdefgh12345678 was used.");
    const { entries } = t.build("final");
    expect(entries[0]).toEqual({ kind: "user", text: "Use my key [REDACTED] to book it." });
    expect(entries[1]).toMatchObject({
      arguments: { user: "ann", password: "[REDACTED]" },
      result: `${"x".repeat(30)} token=[RE`,
      truncatedFrom: 47,
    });
    expect(JSON.stringify(entries)).not.toMatch(/ghp_|hunter2|sk-ant-api03|abcdefgh12345678/);
    expect(entries[2]).toEqual({ kind: "final", text: "Done. Bearer [REDACTED] was used." });
  });

  it("keeps arguments as they were when there is nothing to redact", () => {
    const t = builder();
    const args = { nested: { list: [1, 2, { deep: true }] } };
    t.toolCall({ name: "x", arguments: args, result: "ok", isError: false, durationMs: 0 });
    expect(t.build("final").entries[0]).toMatchObject({ arguments: args });
  });

  it("renders what the judge reads: numbered calls, error results, the truncation marker and a stop note", () => {
    const t = builder(10);
    t.user("Check the weather.");
    t.assistant("Looking it up.");
    t.toolCall({
      name: "get_weather",
      arguments: { city: "Paris" },
      result: "Paris: 18C and clear, wind from the west",
      isError: false,
      durationMs: 4,
    });
    t.toolCall({
      name: "get_weather",
      arguments: {},
      result: "city is required",
      isError: true,
      durationMs: 1,
    });
    t.turn();
    t.turn();
    const transcript = t.build(
      "max_turns",
      "The agent stopped: its turn limit of 2 model calls was reached before a final reply.",
    );
    expect(transcript).toMatchObject({ turns: 2, maxTurns: 5, stop: "max_turns" });
    expect(renderTranscript(transcript)).toBe(
      [
        "User:\nCheck the weather.",
        "Assistant:\nLooking it up.",
        'Tool call 1: get_weather {"city":"Paris"}\nTool result 1:\nParis: 18C\n[… truncated: showing the first 10 of 40 characters]',
        "Tool call 2: get_weather {}\nTool result 2 (error):\ncity is re\n[… truncated: showing the first 10 of 16 characters]",
        "[The agent stopped: its turn limit of 2 model calls was reached before a final reply.]",
      ].join("\n\n"),
    );
  });
});

describe("tools offered to the agent", () => {
  it("keeps valid MCP tool names, aliases the others and maps calls back; the last tool carries the cache breakpoint", () => {
    const schema = {
      type: "object" as const,
      $schema: "http://json-schema.org/draft-07/schema#",
      properties: {},
    };
    const { tools, mcpName } = toAnthropicTools([
      { name: "get_weather", description: "Weather", inputSchema: schema },
      { name: "calendar.create", inputSchema: schema },
      { name: "calendar/create", inputSchema: schema },
    ]);
    expect(tools.map((t) => t.name)).toEqual([
      "get_weather",
      "calendar_create",
      "calendar_create_2",
    ]);
    expect(tools.map((t) => mcpName(t.name))).toEqual([
      "get_weather",
      "calendar.create",
      "calendar/create",
    ]);
    expect(tools[0]).toEqual({
      name: "get_weather",
      description: "Weather",
      input_schema: { type: "object", properties: {} },
    });
    expect(tools.map((t) => t.cache_control)).toEqual([
      undefined,
      undefined,
      { type: "ephemeral" },
    ]);
  });
});

describe("which servers may start", () => {
  const listed: ServerConfig = {
    kind: "stdio",
    command: "node",
    args: ["calendar.mjs"],
    env: { TZ: "UTC" },
    startTimeoutSeconds: 30,
    toolTimeoutSeconds: 60,
  };
  const allow = allowListedServers({ calendar: listed });

  it("the CLI's allows every server its own suite names", () => {
    expect(allowAllServers({ name: "anything", config: { ...listed, command: "rm" } })).toBe(true);
  });

  it("a listed server is allowed with its listed configuration, key order and timeouts aside", () => {
    expect(
      allow({
        name: "calendar",
        config: {
          toolTimeoutSeconds: 5,
          startTimeoutSeconds: 1,
          env: { TZ: "UTC" },
          args: ["calendar.mjs"],
          command: "node",
          kind: "stdio",
        },
      }),
    ).toBe(true);
  });

  it("refuses an unlisted name, and a listed name with another command, args, env or cwd", () => {
    expect(allow({ name: "shell", config: listed })).toBe(
      "it is not among the servers this deployment allows (calendar)",
    );
    for (const config of [
      { ...listed, command: "bash" },
      { ...listed, args: ["-e", "evil()"] },
      { ...listed, env: { NODE_OPTIONS: "--require x" } },
      { ...listed, cwd: "/" },
    ]) {
      expect(allow({ name: "calendar", config })).toBe(
        "its configuration differs from the one this deployment allows under that name",
      );
    }
    expect(
      allow({
        name: "calendar",
        config: {
          kind: "http",
          url: "http://evil.example/mcp",
          headers: {},
          startTimeoutSeconds: 30,
          toolTimeoutSeconds: 60,
        },
      }),
    ).not.toBe(true);
  });
});
