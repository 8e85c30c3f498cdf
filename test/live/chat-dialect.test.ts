import { describe, expect, test } from "vitest";
import type { LiveAgentSettings } from "../../lib/engine/ports/live-port";
import { createChatDialect, type ChatSender } from "../../lib/live/chat-dialect";

// What the Chat Completions dialect makes of replies an endpoint should not
// send: each is a malformed turn (the run then ends as a located error, see
// test/cli/live-providers.test.ts), never an exception; and the lenient
// shapes local servers do send are read.

const AGENT: LiveAgentSettings = {
  model: "local:qwen3-8b",
  maxTurns: 4,
  timeoutSeconds: 30,
  maxTokens: 256,
  maxResultChars: 2000,
};
const slot = { release: () => {}, acquire: async () => {} };

function dialectAnswering(message: unknown) {
  const chat: ChatSender = {
    send: async () => ({
      ok: true,
      completion: { choices: message === undefined ? [] : [{ message }] } as never,
    }),
  };
  return createChatDialect({
    chat,
    model: "qwen3-8b",
    maxTokensField: "max_tokens",
    agent: AGENT,
    prompt: "Book it.",
    tools: [],
  });
}

const turnOf = (message: unknown) =>
  dialectAnswering(message).send(
    { attempts: 0, usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } },
    { slot },
  );

describe("chat dialect: replies it cannot act on", () => {
  test.each([
    ["no choices", undefined, "the reply has no message (no choices)"],
    [
      "tool_calls that is not a list",
      { role: "assistant", content: null, tool_calls: { id: "x" } },
      "tool_calls is not a list",
    ],
    [
      "a tool call without an id",
      {
        role: "assistant",
        content: null,
        tool_calls: [{ type: "function", function: { name: "create_event", arguments: "{}" } }],
      },
      'tool call 1 ("create_event") has no id',
    ],
    [
      "a custom tool call",
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "c1", type: "custom", custom: { name: "x", input: "" } }],
      },
      "tool call 1 is not a function call",
    ],
    [
      "arguments that are a JSON list",
      {
        role: "assistant",
        content: null,
        tool_calls: [
          { id: "c1", type: "function", function: { name: "create_event", arguments: "[1]" } },
        ],
      },
      'the arguments of tool call 1 ("create_event") are not a JSON object',
    ],
  ])("%s is a malformed turn", async (_name, message, problem) => {
    expect(await turnOf(message)).toEqual({ ok: false, malformed: problem });
  });

  test("arguments sent as an object, or as an empty string, are read; content that is not text counts as none", async () => {
    const turn = await turnOf({
      role: "assistant",
      content: [{ type: "text", text: "ignored" }],
      tool_calls: [
        {
          id: "c1",
          type: "function",
          function: { name: "create_event", arguments: { title: "Lunch" } },
        },
        { id: "c2", type: "function", function: { name: "list_events", arguments: "" } },
      ],
    });
    expect(turn).toEqual({
      ok: true,
      text: "",
      toolCalls: [
        { id: "c1", name: "create_event", input: { title: "Lunch" } },
        { id: "c2", name: "list_events", input: {} },
      ],
    });
  });
});
