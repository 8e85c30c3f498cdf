import type OpenAI from "openai";
import type { JudgeCallContext } from "../engine/ports/judge-port";
import type { LiveAgentSettings } from "../engine/ports/live-port";
import type { AgentDialect, AgentToolCall, CallState, SendFailure } from "./agent-dialect";
import { toChatTools } from "./agent-tools";
import type { McpTool } from "./server-connection";

// The agent's conversation on an OpenAI-compatible Chat Completions endpoint
// (OpenAI, vLLM, Ollama, llama.cpp's server, a LiteLLM proxy): `tools` as
// functions, the model's `tool_calls` echoed in its assistant turn, each
// result as a `role: tool` message. A tool call whose arguments are not a JSON
// object cannot be run: the reply is malformed, and the run ends on it.

type Body = OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming;
type Param = OpenAI.Chat.Completions.ChatCompletionMessageParam;

/** What lib/judge's createRetryingChat provides; a structural type, as lib/live does not import lib/judge. */
export interface ChatSender {
  send(
    body: Body,
    state: CallState,
    context: JudgeCallContext,
  ): Promise<
    | { ok: true; completion: OpenAI.Chat.Completions.ChatCompletion }
    | { ok: false; failure: SendFailure; attempts: number }
  >;
}

export interface ChatDialectInput {
  chat: ChatSender;
  /** The model id the endpoint knows (its provider prefix removed). */
  model: string;
  /** OpenAI's own API wants max_completion_tokens (the o-series rejects max_tokens); local servers know max_tokens. */
  maxTokensField: "max_completion_tokens" | "max_tokens";
  agent: LiveAgentSettings;
  prompt: string;
  tools: McpTool[];
}

/** Tool calls with their arguments parsed, or what is wrong with the first one that does not parse. */
function readToolCalls(
  calls: unknown,
): { ok: true; calls: AgentToolCall[] } | { ok: false; problem: string } {
  if (calls === undefined || calls === null) return { ok: true, calls: [] };
  if (!Array.isArray(calls)) return { ok: false, problem: "tool_calls is not a list" };
  const read: AgentToolCall[] = [];
  for (const [i, call] of (
    calls as Partial<OpenAI.Chat.Completions.ChatCompletionMessageFunctionToolCall>[]
  ).entries()) {
    if (call?.type !== "function" || typeof call.function?.name !== "string")
      return { ok: false, problem: `tool call ${i + 1} is not a function call` };
    if (typeof call.id !== "string")
      return { ok: false, problem: `tool call ${i + 1} ("${call.function.name}") has no id` };
    const { name, arguments: text } = call.function;
    let input: unknown;
    try {
      // Some local servers send "" for a call without arguments, or the arguments as an object.
      input = typeof text !== "string" ? text : text.trim() === "" ? {} : JSON.parse(text);
    } catch (error) {
      return {
        ok: false,
        problem: `the arguments of tool call ${i + 1} ("${name}") are not valid JSON (${(error as Error).message}): ${JSON.stringify(String(text).slice(0, 200))}`,
      };
    }
    if (input === null || typeof input !== "object" || Array.isArray(input))
      return {
        ok: false,
        problem: `the arguments of tool call ${i + 1} ("${name}") are not a JSON object`,
      };
    read.push({ id: call.id, name, input });
  }
  return { ok: true, calls: read };
}

export function createChatDialect(input: ChatDialectInput): AgentDialect {
  const { chat, agent } = input;
  const { tools, mcpName } = toChatTools(input.tools);
  const history: Param[] = [
    ...(agent.system !== undefined ? [{ role: "system" as const, content: agent.system }] : []),
    { role: "user", content: input.prompt },
  ];
  const body = (): Body =>
    ({
      model: input.model,
      [input.maxTokensField]: agent.maxTokens,
      ...(agent.temperature !== undefined ? { temperature: agent.temperature } : {}),
      ...(tools.length > 0 ? { tools } : {}),
      messages: [...history],
    }) as Body;
  return {
    mcpName,
    nextRequest: () => JSON.stringify(body()),
    async send(state, context) {
      const sent = await chat.send(body(), state, context);
      if (!sent.ok) return sent;
      const message = sent.completion.choices?.[0]?.message;
      if (!message) return { ok: false, malformed: "the reply has no message (no choices)" };
      const read = readToolCalls(message.tool_calls);
      if (!read.ok) return { ok: false, malformed: read.problem };
      const content = typeof message.content === "string" ? message.content : "";
      // Echoed as sent back (arguments as JSON text), so the endpoint sees its own calls.
      const toolCalls = read.calls.map((c) => ({
        id: c.id,
        type: "function" as const,
        function: { name: c.name, arguments: JSON.stringify(c.input) },
      }));
      history.push({
        role: "assistant",
        content,
        ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
      });
      const text = content.trim();
      return { ok: true, text, toolCalls: read.calls };
    },
    addToolResults(results) {
      // Chat Completions has no error flag on a tool result: the text says it.
      for (const r of results)
        history.push({
          role: "tool",
          tool_call_id: r.id,
          content: r.isError ? `Error: ${r.text}` : r.text,
        });
    },
  };
}
