import type { IncomingHttpHeaders } from "node:http";
import type { BatchOnlyReply } from "./fake-message-batches";
import type { CacheUsage } from "./prompt-cache";

// The stand-in Messages API's request and reply shapes (fake-messages-api.ts):
// what a test's `respond` sees and may answer, and the message it becomes.

export interface FakeUsage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
}

export interface InputUsage {
  input: number;
  cacheWrite: number;
  /** The part of cacheWrite written with a 1-hour TTL (billed 2× input, not 1.25×). */
  cacheWrite1h: number;
  cacheRead: number;
}

export interface FakeRequest {
  /** 0 for the first request this server received. */
  index: number;
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body (undefined when it was not JSON). */
  body: Record<string, unknown>;
  /** Date.now() when the request arrived. */
  receivedAt: number;
  /** The system prompt's text, blocks joined. */
  system: string;
  /** The last user turn's text: its text blocks and the text of its tool_result blocks, joined. */
  user: string;
  /** The first tool's name, if the request offers tools. */
  toolName: string | undefined;
  /** Set for a request of a message batch: its custom_id. */
  customId?: string;
}

export type FakeReply =
  | { verdict: { reasoning: string; score: number; evidence?: string }; usage?: Partial<FakeUsage> }
  | { text: string; usage?: Partial<FakeUsage> }
  /** `model`: the model the reply says answered (default: the one asked for), as the API names a dated version. */
  | { toolInput: unknown; usage?: Partial<FakeUsage>; model?: string }
  /** An agent's turn: calls of the named tools (e.g. an MCP server's), after an optional text. */
  | { toolCalls: { name: string; input: unknown }[]; text?: string; usage?: Partial<FakeUsage> }
  | { status: number; headers?: Record<string, string>; body?: unknown }
  | { hang: true }
  /** Only for a request in a message batch (an expired or canceled result); a plain request gets a 500. */
  | BatchOnlyReply;

export function addUsage(total: InputUsage, usage: ReturnType<typeof messageFor>["usage"]): void {
  total.input += usage.input_tokens;
  total.cacheWrite += usage.cache_creation_input_tokens;
  total.cacheRead += usage.cache_read_input_tokens;
  total.cacheWrite1h += usage.cache_creation.ephemeral_1h_input_tokens;
}

export function describeRequest(input: {
  index: number;
  method: string;
  headers: IncomingHttpHeaders;
  path: string;
  body: Record<string, unknown>;
}): FakeRequest {
  const { body } = input;
  const tools = Array.isArray(body.tools) ? (body.tools as Array<{ name?: unknown }>) : [];
  const toolName = typeof tools[0]?.name === "string" ? tools[0].name : undefined;
  const messages = Array.isArray(body.messages)
    ? (body.messages as Array<{ role?: unknown; content?: unknown }>)
    : [];
  const lastUser = messages.filter((m) => m.role === "user").at(-1);
  return {
    index: input.index,
    method: input.method,
    path: input.path,
    headers: input.headers,
    body,
    receivedAt: Date.now(),
    system: textOf(body.system),
    user: textOf(lastUser?.content),
    toolName,
  };
}

/** The text of a string or of a list of blocks (text blocks, and tool_result blocks' content). */
function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  const parts: string[] = [];
  for (const block of content as Array<{ type?: unknown; text?: unknown; content?: unknown }>) {
    if (block.type === "text" && typeof block.text === "string") parts.push(block.text);
    else if (block.type === "tool_result") parts.push(textOf(block.content));
  }
  return parts.join("\n");
}

export function messageFor(input: {
  reply: Exclude<FakeReply, { status: number } | { hang: true } | BatchOnlyReply>;
  request: FakeRequest;
  bodyLength: number;
  serial: number;
  cacheUsage?: CacheUsage;
}) {
  const { reply, request, serial, cacheUsage } = input;
  const { cache_creation: split, ...counted } = cacheUsage ?? {
    input_tokens: Math.ceil(input.bodyLength / 4),
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0,
    cache_creation: undefined,
  };
  const usage: FakeUsage = { output_tokens: 60, ...counted, ...reply.usage };
  const id = `${serial.toString(36).padStart(6, "0")}fake`;
  const toolUse = (input: unknown) => ({
    type: "tool_use",
    id: `toolu_01${id}`,
    name: request.toolName ?? "record_verdict",
    input,
  });
  const content =
    "toolCalls" in reply
      ? [
          ...(reply.text ? [{ type: "text", text: reply.text }] : []),
          ...reply.toolCalls.map((c, i) => ({
            type: "tool_use",
            id: `toolu_01${id}${i}`,
            name: c.name,
            input: c.input,
          })),
        ]
      : "text" in reply
        ? [{ type: "text", text: reply.text }]
        : [toolUse("verdict" in reply ? reply.verdict : reply.toolInput)];
  return {
    id: `msg_01${id}`,
    type: "message",
    role: "assistant",
    model:
      "model" in reply && typeof reply.model === "string"
        ? reply.model
        : typeof request.body.model === "string"
          ? request.body.model
          : "claude-fake",
    content,
    stop_reason: "text" in reply && !("toolCalls" in reply) ? "end_turn" : "tool_use",
    stop_sequence: null,
    usage: {
      ...usage,
      cache_creation:
        split && !reply.usage
          ? split
          : {
              ephemeral_5m_input_tokens: usage.cache_creation_input_tokens,
              ephemeral_1h_input_tokens: 0,
            },
      service_tier: "standard",
    },
  };
}
