import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ErrorCode, McpError, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { ServerConfig } from "../config/types";

// One MCP server, connected through @modelcontextprotocol/sdk: started (stdio)
// or reached (Streamable HTTP) within its start timeout, its tools listed once,
// its stderr kept (the tail goes into a failed eval's report), tool calls made
// under the per-call timeout. A server that goes away mid-call is told apart
// from a tool that merely failed: the first fails the eval, the second is the
// agent's problem to handle, like any tool error.

export interface McpTool {
  name: string;
  description?: string;
  inputSchema: { type: "object"; [key: string]: unknown };
}

export type ToolCallOutcome =
  | { kind: "result"; text: string; isError: boolean }
  /** The server died or stopped answering at the transport level. */
  | { kind: "server_gone"; message: string }
  /** The caller's signal aborted the call (time limit or interruption). */
  | { kind: "aborted" };

export interface ServerConnection {
  readonly name: string;
  readonly tools: McpTool[];
  readonly alive: boolean;
  callTool(input: {
    name: string;
    arguments: unknown;
    signal: AbortSignal;
  }): Promise<ToolCallOutcome>;
  /** The last few KB the server wrote to stderr (stdio servers). */
  stderrTail(): string;
  close(): Promise<void>;
}

export type ConnectResult =
  { ok: true; connection: ServerConnection } | { ok: false; reason: string };

const STDERR_KEEP_CHARS = 4000;
const MAX_TOOL_PAGES = 50;

export interface ConnectServerInput {
  name: string;
  config: ServerConfig;
  /** Where a stdio server's relative cwd resolves: the suite file's folder. */
  baseDir: string;
  clientVersion: string;
}

export async function connectServer(input: ConnectServerInput): Promise<ConnectResult> {
  const { name, config } = input;
  let stderr = "";
  const keep = (chunk: Buffer | string) => {
    stderr = (stderr + chunk.toString()).slice(-STDERR_KEEP_CHARS);
  };
  const transport =
    config.kind === "stdio"
      ? new StdioClientTransport({
          command: config.command,
          args: config.args,
          // The SDK adds only HOME, LOGNAME, PATH, SHELL, TERM and USER to
          // these: the run's own keys never reach a server unless listed.
          env: config.env,
          cwd: path.resolve(input.baseDir, config.cwd ?? "."),
          stderr: "pipe",
        })
      : new StreamableHTTPClientTransport(new URL(config.url), {
          requestInit: { headers: config.headers },
        });
  if (transport instanceof StdioClientTransport) transport.stderr?.on("data", keep);

  let alive = true;
  const client = new Client({ name: "rubric-studio", version: input.clientVersion });
  client.onclose = () => {
    alive = false;
  };
  const startMs = config.startTimeoutSeconds * 1000;
  const tools: McpTool[] = [];
  try {
    await client.connect(transport, { timeout: startMs });
    let cursor: string | undefined;
    for (let page = 0; page < MAX_TOOL_PAGES; page++) {
      const listed = await client.listTools(cursor === undefined ? {} : { cursor }, {
        timeout: startMs,
      });
      for (const tool of listed.tools)
        tools.push({
          name: tool.name,
          ...(tool.description ? { description: tool.description } : {}),
          inputSchema: tool.inputSchema,
        });
      cursor = listed.nextCursor;
      if (cursor === undefined) break;
    }
  } catch (error) {
    await client.close().catch(() => {});
    const where =
      config.kind === "stdio"
        ? `could not start ${JSON.stringify([config.command, ...config.args].join(" "))}`
        : `could not reach ${config.url}`;
    const tail = lastLines(stderr);
    return {
      ok: false,
      reason: `server "${name}" is unreachable: ${where}: ${describeError(error)}${tail ? `; stderr: ${tail}` : ""}`,
    };
  }

  const toolMs = config.toolTimeoutSeconds * 1000;
  const connection: ServerConnection = {
    name,
    tools,
    get alive() {
      return alive;
    },
    async callTool({ name: tool, arguments: args, signal }) {
      // Evals bind to the connection when they start; one that outlives its
      // server (killed by another eval's call) fails at its next tool call.
      if (!alive)
        return {
          kind: "server_gone",
          message: "had already exited earlier in the run (its process closed the connection)",
        };
      try {
        const result = await client.callTool(
          { name: tool, arguments: (args ?? {}) as Record<string, unknown> },
          undefined,
          { timeout: toolMs, signal },
        );
        return {
          kind: "result",
          text: resultText(result as CallToolResult),
          isError: result.isError === true,
        };
      } catch (error) {
        if (signal.aborted) return { kind: "aborted" };
        if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
          return {
            kind: "result",
            text: `the tool call timed out after ${config.toolTimeoutSeconds} s`,
            isError: true,
          };
        }
        // A JSON-RPC error from a live server (unknown tool, bad arguments) is a tool error.
        if (alive && error instanceof McpError && error.code !== ErrorCode.ConnectionClosed) {
          return {
            kind: "result",
            text: `MCP error ${error.code}: ${error.message}`,
            isError: true,
          };
        }
        const how =
          config.kind === "stdio"
            ? "exited (its process closed the connection)"
            : "stopped answering";
        return { kind: "server_gone", message: `${how}: ${describeError(error)}` };
      }
    },
    stderrTail: () => stderr,
    async close() {
      if (transport instanceof StreamableHTTPClientTransport && alive)
        await transport.terminateSession().catch(() => {});
      await client.close().catch(() => {});
    },
  };
  return { ok: true, connection };
}

/** A tool result as text: text parts as they are, other parts by a short description. */
export function resultText(result: CallToolResult): string {
  const parts: string[] = [];
  for (const item of result.content ?? []) {
    if (item.type === "text") parts.push(item.text);
    else if (item.type === "image" || item.type === "audio")
      parts.push(`[${item.type} ${item.mimeType}, ${item.data.length} base64 characters]`);
    else if (item.type === "resource")
      parts.push("text" in item.resource ? item.resource.text : `[resource ${item.resource.uri}]`);
    else if (item.type === "resource_link") parts.push(`[resource link ${item.uri}]`);
  }
  if (parts.length === 0 && result.structuredContent !== undefined)
    parts.push(JSON.stringify(result.structuredContent));
  return parts.join("\n");
}

function describeError(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return typeof code === "string" && !error.message.includes(code)
      ? `${code}: ${error.message}`
      : error.message;
  }
  return String(error);
}

/** The last non-empty lines of a stderr tail, on one line, for a one-line message. */
function lastLines(text: string, count = 3): string {
  return text
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean)
    .slice(-count)
    .join(" | ");
}
