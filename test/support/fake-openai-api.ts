import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

// A stand-in of an OpenAI-compatible Chat Completions endpoint on 127.0.0.1
// (OpenAI, vLLM, Ollama...), so that tests run the real `openai` SDK over real
// HTTP, as test/support/fake-messages-api.ts does for the Anthropic SDK. It
// answers a verdict in whatever way the request asked for one (a forced tool
// call, a json_schema response format, plain JSON), and can play a server
// that supports neither tools nor response formats (a 400 to each). For live
// agents it answers scripted tool calls (test/support/openai-agent-script.ts).

export interface FakeOpenAIRequest {
  index: number;
  path: string;
  headers: IncomingHttpHeaders;
  body: Record<string, unknown>;
  model: string;
  /** How this request asked for the verdict. */
  mode: "tools" | "json_schema" | "json";
  /** The system message's text. */
  system: string;
  /** The last message's text (a user turn, or a tool result in a repair). */
  last: string;
  receivedAt: number;
}

export interface FakeOpenAIUsage {
  prompt_tokens: number;
  completion_tokens: number;
  cached_tokens: number;
}

export type FakeOpenAIReply =
  /** A verdict, sent the way the request asked for one. */
  | { verdict: Record<string, unknown>; usage?: Partial<FakeOpenAIUsage> }
  /** The message content as given (a malformed reply, or text instead of a tool call). */
  | { content: string; usage?: Partial<FakeOpenAIUsage> }
  /** A tool call of record_verdict with these arguments, verbatim. */
  | { toolArguments: string; usage?: Partial<FakeOpenAIUsage> }
  /** An agent's turn: calls of these tools (`input` as JSON, or `arguments` verbatim, malformed or not), with optional text. */
  | {
      toolCalls: { name: string; input?: unknown; arguments?: string }[];
      text?: string;
      usage?: Partial<FakeOpenAIUsage>;
    }
  | { status: number; headers?: Record<string, string>; body?: unknown };

export interface FakeOpenAIApiOptions {
  respond?: (request: FakeOpenAIRequest) => FakeOpenAIReply;
  /** A server that knows neither tools nor response_format (a small local server): both answer 400. Default false. */
  plainOnly?: boolean;
}

export interface FakeOpenAIApi {
  /** The base URL to give the SDK, with /v1. */
  url: string;
  requests: FakeOpenAIRequest[];
  close(): Promise<void>;
}

const DEFAULT_USAGE: FakeOpenAIUsage = {
  prompt_tokens: 1200,
  completion_tokens: 60,
  cached_tokens: 0,
};

export async function startFakeOpenAIApi(
  options: FakeOpenAIApiOptions = {},
): Promise<FakeOpenAIApi> {
  const requests: FakeOpenAIRequest[] = [];
  let serial = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const send = (status: number, payload: unknown, headers: Record<string, string> = {}) => {
        const text = JSON.stringify(payload);
        res.writeHead(status, {
          "content-type": "application/json",
          "content-length": String(Buffer.byteLength(text)),
          ...headers,
        });
        res.end(text);
      };
      const error = (status: number, message: string, headers: Record<string, string> = {}) =>
        send(
          status,
          {
            error: {
              message,
              type: status === 429 ? "rate_limit_exceeded" : "invalid_request_error",
              code: null,
              param: null,
            },
          },
          headers,
        );
      if (req.method !== "POST" || req.url !== "/v1/chat/completions")
        return error(404, `no route ${req.method} ${req.url}`);
      let body: Record<string, unknown>;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as Record<string, unknown>;
      } catch {
        return error(400, "the body is not JSON");
      }
      const messages = (body.messages ?? []) as { role: string; content: unknown }[];
      const mode = body.tools
        ? "tools"
        : (body.response_format as { type?: string } | undefined)?.type === "json_schema"
          ? "json_schema"
          : "json";
      const request: FakeOpenAIRequest = {
        index: requests.length,
        path: req.url,
        headers: req.headers,
        body,
        model: String(body.model),
        mode,
        system: String(messages.find((m) => m.role === "system")?.content ?? ""),
        last: String(messages.at(-1)?.content ?? ""),
        receivedAt: Date.now(),
      };
      requests.push(request);
      if (options.plainOnly && mode !== "json")
        return error(
          400,
          mode === "tools"
            ? "tools are not supported by this server"
            : "response_format json_schema is not supported",
        );
      if (typeof body.model !== "string" || !Array.isArray(body.messages))
        return error(400, "model and messages are required");
      const reply: FakeOpenAIReply = options.respond
        ? options.respond(request)
        : { verdict: { reasoning: "ok", score: 1 } };
      if ("status" in reply)
        return send(
          reply.status,
          reply.body ?? { error: { message: `status ${reply.status}`, type: "server_error" } },
          reply.headers,
        );
      const usage = { ...DEFAULT_USAGE, ...reply.usage };
      const id = `call_${++serial}`;
      const toolCall = (args: string) => ({
        role: "assistant",
        content: null,
        tool_calls: [
          { id, type: "function", function: { name: "record_verdict", arguments: args } },
        ],
      });
      const message =
        "toolCalls" in reply
          ? {
              role: "assistant",
              content: reply.text ?? null,
              tool_calls: reply.toolCalls.map((c, i) => ({
                id: `${id}_${i}`,
                type: "function",
                function: { name: c.name, arguments: c.arguments ?? JSON.stringify(c.input ?? {}) },
              })),
            }
          : "toolArguments" in reply
            ? toolCall(reply.toolArguments)
            : "content" in reply
              ? { role: "assistant", content: reply.content }
              : mode === "tools"
                ? toolCall(JSON.stringify(reply.verdict))
                : { role: "assistant", content: JSON.stringify(reply.verdict) };
      send(200, {
        id: `chatcmpl-${serial}`,
        object: "chat.completion",
        created: Math.floor(Date.now() / 1000),
        model: request.model,
        choices: [
          {
            index: 0,
            message: { refusal: null, ...message },
            finish_reason: "tool_calls" in message ? "tool_calls" : "stop",
            logprobs: null,
          },
        ],
        usage: {
          prompt_tokens: usage.prompt_tokens,
          completion_tokens: usage.completion_tokens,
          total_tokens: usage.prompt_tokens + usage.completion_tokens,
          prompt_tokens_details: { cached_tokens: usage.cached_tokens },
        },
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
