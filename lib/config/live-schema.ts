import * as z from "zod";
import { LIMITS, atMost } from "./limits";
import { ModelNameSchema } from "./provider-schema";

// The live candidate's part of the YAML language (schema.ts): the MCP servers
// an eval's agent may use (`servers:`, and the dashboard's allow-list file)
// and the agent itself (`agent:`).

const serverTimeouts = {
  start_timeout_seconds: z
    .number()
    .gt(0, { error: "start_timeout_seconds must be greater than 0" })
    .max(600)
    .optional()
    .describe(
      "How long starting the server and the MCP handshake may take. Default 30. A server " +
        "that does not answer in time defers its evals.",
    ),
  tool_timeout_seconds: z
    .number()
    .gt(0, { error: "tool_timeout_seconds must be greater than 0" })
    .max(3600)
    .optional()
    .describe(
      "How long one tool call may take. Default 60. A call that times out is reported to the agent as a tool error.",
    ),
};

export const StdioServerSchema = z
  .strictObject({
    command: z.string().min(1).describe("Executable that speaks MCP over stdio."),
    args: z.array(z.string()).optional().describe("Arguments for the command."),
    env: z
      .record(z.string(), z.string())
      .optional()
      .describe(
        "Environment variables for the server. It inherits only HOME, LOGNAME, PATH, " +
          "SHELL, TERM and USER from the caller, so keys are not passed on unless listed " +
          "here.",
      ),
    cwd: z
      .string()
      .optional()
      .describe("Working directory, relative to the suite file. Default: the suite file's folder."),
    ...serverTimeouts,
  })
  .describe("An MCP server started over stdio.");

export const HttpServerSchema = z
  .strictObject({
    url: z
      .url({ error: "url must be an absolute http(s) URL" })
      .describe("Streamable HTTP endpoint of the MCP server."),
    headers: z
      .record(z.string(), z.string())
      .optional()
      .describe("HTTP headers sent with every request."),
    ...serverTimeouts,
  })
  .describe("An MCP server reached over Streamable HTTP.");

export const ServerSchema = z
  .union([StdioServerSchema, HttpServerSchema], {
    error: "a server needs either command (stdio) or url (Streamable HTTP)",
  })
  .describe("An MCP server: { command, args, env, cwd } or { url, headers }.");

export const AgentSchema = z
  .strictObject({
    model: ModelNameSchema.optional().describe(
      "The agent's model: claude-haiku-4-5 (provider resolved), openai:gpt-4.1-mini, or a " +
        "model of a provider under providers: (local:qwen3-8b). Default: the default judge " +
        "model (RUBRIC_STUDIO_JUDGE_MODEL or claude-sonnet-4-6).",
    ),
    max_turns: z
      .int()
      .min(1, { error: "max_turns must be at least 1" })
      .max(100, { error: "max_turns must be at most 100" })
      .optional()
      .describe(
        "The agent's call budget: model calls per run. Default 10. A run that reaches it " +
          "is graded as it stands, marked as stopped.",
      ),
    timeout_seconds: z
      .number()
      .gt(0, { error: "timeout_seconds must be greater than 0" })
      .max(3600)
      .optional()
      .describe(
        "Time limit of one agent run, tool calls included. Default 300. A run that reaches " +
          "it is graded as it stands, marked as stopped.",
      ),
    max_tokens: z
      .int()
      .min(64)
      .max(64000)
      .optional()
      .describe("Output token limit per agent model call. Default 2048."),
    system: z.string().min(1).optional().describe("A system prompt for the agent. Default: none."),
    max_result_chars: z
      .int()
      .min(100, { error: "max_result_chars must be at least 100" })
      .max(
        LIMITS.maxResultChars,
        atMost(LIMITS.maxResultChars, "max_result_chars must be at most {n}"),
      )
      .optional()
      .describe(
        "Tool results longer than this are truncated, with a marker, in the transcript the judge grades. Default 2000.",
      ),
  })
  .describe(
    "The live agent: for an eval without response, the prompt runs as an agent (Claude, or any OpenAI-compatible model) with the server's tools, and the whole run is graded.",
  );

export type ServerInput = z.output<typeof ServerSchema>;
export type AgentInput = z.output<typeof AgentSchema>;
