import type Anthropic from "@anthropic-ai/sdk";
import type { JudgeCallContext } from "../engine/ports/judge-port";
import type { LiveAgentSettings } from "../engine/ports/live-port";
import type { AgentDialect, CallState, SendFailure } from "./agent-dialect";
import { toAnthropicTools } from "./agent-tools";
import type { McpTool } from "./server-connection";

// The agent's conversation on the Messages API (Claude): tool_use blocks in
// the assistant turn, tool_result blocks in the next user turn, and cache
// breakpoints on the tool list and on the last turn, so that each call reads
// the turns before it from the prompt cache.

/** What lib/judge's createRetryingMessages provides; a structural type, as lib/live does not import lib/judge. */
export interface MessagesSender {
  send(
    body: Anthropic.MessageCreateParamsNonStreaming,
    state: CallState,
    context: JudgeCallContext,
  ): Promise<
    { ok: true; message: Anthropic.Message } | { ok: false; failure: SendFailure; attempts: number }
  >;
}

const EPHEMERAL = { type: "ephemeral" } as const;

/**
 * The conversation with one cache breakpoint, on the last block of the last turn, so each turn
 * reads the previous ones from the cache.
 */
function withBreakpoint(history: Anthropic.MessageParam[]): Anthropic.MessageParam[] {
  const last = history.at(-1);
  // The loop always ends the conversation on a user turn (the prompt, or tool results).
  if (!last || last.role !== "user") return history;
  const blocks: Anthropic.ContentBlockParam[] =
    typeof last.content === "string" ? [{ type: "text", text: last.content }] : [...last.content];
  const tail = blocks.at(-1);
  if (tail && (tail.type === "text" || tail.type === "tool_result"))
    blocks[blocks.length - 1] = { ...tail, cache_control: EPHEMERAL };
  return [...history.slice(0, -1), { role: "user", content: blocks }];
}

export function createMessagesDialect(input: {
  messages: MessagesSender;
  model: string;
  agent: LiveAgentSettings;
  prompt: string;
  tools: McpTool[];
}): AgentDialect {
  const { messages, agent } = input;
  const { tools, mcpName } = toAnthropicTools(input.tools);
  const history: Anthropic.MessageParam[] = [{ role: "user", content: input.prompt }];
  const body = (): Anthropic.MessageCreateParamsNonStreaming => ({
    model: input.model,
    max_tokens: agent.maxTokens,
    // No `temperature`, even for a generated candidate: the API version this SDK speaks answers 400 to it (lib/judge/README.md).
    ...(agent.system !== undefined ? { system: agent.system } : {}),
    ...(tools.length > 0 ? { tools } : {}),
    messages: withBreakpoint(history),
  });
  return {
    mcpName,
    nextRequest: () => JSON.stringify(body()),
    async send(state, context) {
      const sent = await messages.send(body(), state, context);
      if (!sent.ok) return sent;
      const reply = sent.message;
      const text = reply.content
        .flatMap((b) => (b.type === "text" ? [b.text] : []))
        .join("\n")
        .trim();
      const uses = reply.content.filter((b): b is Anthropic.ToolUseBlock => b.type === "tool_use");
      history.push({
        role: "assistant",
        content: reply.content.flatMap((b): Anthropic.ContentBlockParam[] =>
          b.type === "text" && b.text.length > 0
            ? [{ type: "text", text: b.text }]
            : b.type === "tool_use"
              ? [{ type: "tool_use", id: b.id, name: b.name, input: b.input }]
              : [],
        ),
      });
      return {
        ok: true,
        text,
        toolCalls: uses.map((u) => ({ id: u.id, name: u.name, input: u.input })),
      };
    },
    addToolResults(results) {
      history.push({
        role: "user",
        content: results.map((r): Anthropic.ToolResultBlockParam => ({
          type: "tool_result",
          tool_use_id: r.id,
          content: r.text,
          ...(r.isError ? { is_error: true } : {}),
        })),
      });
    },
  };
}
