import type Anthropic from "@anthropic-ai/sdk";
import type OpenAI from "openai";
import type { McpTool } from "./server-connection";

// MCP tools offered to the agent's model. Tool names may hold characters the
// APIs refuse in a tool name (dots, slashes; both the Messages API and Chat
// Completions take [a-zA-Z0-9_-], at most 64). Such names are offered under a
// safe alias and mapped back when the agent calls them.

const VALID = /^[a-zA-Z0-9_-]{1,64}$/;

interface OfferedTool {
  name: string;
  description?: string;
  schema: Record<string, unknown> & { type: "object" };
}

export interface AgentToolList<T> {
  tools: T[];
  /** The MCP tool an offered name stands for. */
  mcpName: (name: string) => string;
}

function aliasTools(mcpTools: McpTool[]): AgentToolList<OfferedTool> {
  const used = new Set(mcpTools.map((t) => t.name).filter((name) => VALID.test(name)));
  const back = new Map<string, string>();
  const tools = mcpTools.map((tool): OfferedTool => {
    let name = tool.name;
    if (!VALID.test(name)) {
      const base = (name.replace(/[^a-zA-Z0-9_-]/g, "_") || "tool").slice(0, 60);
      name = base;
      for (let n = 2; used.has(name); n++) name = `${base}_${n}`;
      used.add(name);
      back.set(name, tool.name);
    }
    // Servers built with zod stamp a draft-07 $schema on their schemas; the APIs want the schema alone.
    const { $schema: _ignored, ...schema } = tool.inputSchema;
    return {
      name,
      ...(tool.description ? { description: tool.description } : {}),
      schema: { ...schema, type: "object" },
    };
  });
  return { tools, mcpName: (name) => back.get(name) ?? name };
}

export function toAnthropicTools(mcpTools: McpTool[]): AgentToolList<Anthropic.Tool> {
  const { tools: offered, mcpName } = aliasTools(mcpTools);
  const tools = offered.map((t): Anthropic.Tool => ({
    name: t.name,
    ...(t.description ? { description: t.description } : {}),
    input_schema: t.schema,
  }));
  // The tool list is the same for every run against a server: a breakpoint
  // after it lets runs with different prompts share that prefix.
  const last = tools.at(-1);
  if (last) tools[tools.length - 1] = { ...last, cache_control: { type: "ephemeral" } };
  return { tools, mcpName };
}

/**
 * Chat Completions function tools (not strict: an MCP schema need not meet strict mode's rules).
 * The endpoint caches prefixes by itself.
 */
export function toChatTools(
  mcpTools: McpTool[],
): AgentToolList<OpenAI.Chat.Completions.ChatCompletionFunctionTool> {
  const { tools: offered, mcpName } = aliasTools(mcpTools);
  const tools = offered.map((t): OpenAI.Chat.Completions.ChatCompletionFunctionTool => ({
    type: "function",
    function: {
      name: t.name,
      ...(t.description ? { description: t.description } : {}),
      parameters: t.schema,
    },
  }));
  return { tools, mcpName };
}
