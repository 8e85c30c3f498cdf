import type Anthropic from "@anthropic-ai/sdk";
import type { McpTool } from "./server-connection";

// MCP tool names may hold characters the Messages API refuses in a tool name
// (dots, slashes; it takes [a-zA-Z0-9_-], at most 64). Such names are offered
// under a safe alias and mapped back when the agent calls them.

const VALID = /^[a-zA-Z0-9_-]{1,64}$/;

export function toAnthropicTools(mcpTools: McpTool[]): { tools: Anthropic.Tool[]; mcpName: (name: string) => string } {
  const used = new Set(mcpTools.map((t) => t.name).filter((name) => VALID.test(name)));
  const back = new Map<string, string>();
  const tools = mcpTools.map((tool): Anthropic.Tool => {
    let name = tool.name;
    if (!VALID.test(name)) {
      const base = (name.replace(/[^a-zA-Z0-9_-]/g, "_") || "tool").slice(0, 60);
      name = base;
      for (let n = 2; used.has(name); n++) name = `${base}_${n}`;
      used.add(name);
      back.set(name, tool.name);
    }
    // Servers built with zod stamp a draft-07 $schema on their schemas; the API wants the schema alone.
    const { $schema: _ignored, ...schema } = tool.inputSchema;
    return { name, ...(tool.description ? { description: tool.description } : {}), input_schema: { ...schema, type: "object" } };
  });
  // The tool list is the same for every run against a server: a breakpoint
  // after it lets runs with different prompts share that prefix.
  const last = tools.at(-1);
  if (last) tools[tools.length - 1] = { ...last, cache_control: { type: "ephemeral" } };
  return { tools, mcpName: (name) => back.get(name) ?? name };
}
