import { readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server, type Socket } from "node:net";
import { afterEach, beforeEach, expect, it } from "vitest";
import { createAnthropicJudge } from "../../lib/judge/anthropic-judge";
import { FAKE_API_KEY, judgeRequest, slotSpy } from "./judge-helpers";

// The bytes a judge call puts on the wire, read by a bare TCP server (no HTTP
// library between them and the test): the request line, every header in its
// order and the body, byte for byte, against a recorded copy
// (test/fixtures/judge-wire/requests.txt). CPU work on the request path
// (issue 20) must not change what the API receives: a lost or reordered field
// fails here. Only what depends on the machine is masked: the port, and the
// SDK's platform headers (OS, architecture, Node and SDK versions).
// WRITE_WIRE_FIXTURE=1 records the copy again (only when a change is meant).

const FIXTURE = new URL("../fixtures/judge-wire/requests.txt", import.meta.url);
const MACHINE_HEADERS =
  /^(user-agent|x-stainless-(os|arch|runtime|runtime-version|package-version|lang)):/i;

let server: Server;
let url: string;
const received: string[] = [];
let replies: string[] = [];
const sockets = new Set<Socket>();

/** A Messages API reply (200, JSON) whose tool call carries `input`. */
function reply(input: unknown): string {
  const body = JSON.stringify({
    id: "msg_wire",
    type: "message",
    role: "assistant",
    model: "claude-haiku-4-5-20251001",
    content: [{ type: "tool_use", id: "toolu_wire", name: "record_verdict", input }],
    stop_reason: "tool_use",
    stop_sequence: null,
    usage: { input_tokens: 10, output_tokens: 5 },
  });
  return `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\nrequest-id: req_wire\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: keep-alive\r\n\r\n${body}`;
}

/** Reads whole requests off a keep-alive connection (head, then content-length bytes) and answers each in turn. */
function serve(socket: Socket): void {
  sockets.add(socket);
  let buffer = Buffer.alloc(0);
  socket.on("data", (chunk: Buffer) => {
    buffer = Buffer.concat([buffer, chunk]);
    for (;;) {
      const end = buffer.indexOf("\r\n\r\n");
      if (end < 0) return;
      const head = buffer.subarray(0, end).toString("latin1");
      const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
      if (buffer.length < end + 4 + length) return;
      received.push(buffer.subarray(0, end + 4 + length).toString("utf8"));
      buffer = buffer.subarray(end + 4 + length);
      socket.write(replies.shift() ?? reply({ reasoning: "ok", score: 1 }));
    }
  });
}

beforeEach(async () => {
  received.length = 0;
  server = createServer(serve);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("no port");
  url = `http://127.0.0.1:${address.port}`;
});
afterEach(async () => {
  // The judge's keep-alive connections would hold close() open.
  for (const socket of sockets) socket.destroy();
  sockets.clear();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

function masked(request: string): string {
  const [head, body] = [
    request.slice(0, request.indexOf("\r\n\r\n")),
    request.slice(request.indexOf("\r\n\r\n") + 4),
  ];
  const lines = head
    .split("\r\n")
    .map((line) =>
      MACHINE_HEADERS.test(line)
        ? `${line.slice(0, line.indexOf(":"))}: <machine>`
        : line.replace(/127\.0\.0\.1:\d+/, "127.0.0.1:<port>"),
    );
  return `${lines.join("\n")}\n\n${body}\n`;
}

it("puts the same bytes on the wire for a short prefix, both cache breakpoints (1 h) and a repair", async () => {
  const judge = createAnthropicJudge({ apiKey: FAKE_API_KEY, baseURL: url, timeoutMs: 5_000 });
  // A rubric long enough for both breakpoints on claude-haiku-4-5 (4,096 tokens at 4 characters a token).
  const longRubric = `You grade answers against this rubric.\n${'Criterion: the answer is correct, "quoted" and plain; naïve ünïcode ✓.\n'.repeat(260)}`;
  replies = [
    reply({ reasoning: "names Paris", score: 0.8 }),
    reply({ reasoning: "ok", score: 1 }),
    // Not a verdict: the judge repairs it, echoing the reply and an error tool_result.
    reply({ reasoning: "no score" }),
    reply({ reasoning: "repaired", score: 0.5 }),
  ];
  const outcomes = [
    await judge.grade(judgeRequest(), { slot: slotSpy() }),
    await judge.grade(
      judgeRequest({
        model: "claude-haiku-4-5",
        stablePrompt: longRubric,
        candidatePrompt: "<candidate>Line one\nline two\ttabbed \\ backslash</candidate>",
      }),
      { slot: slotSpy(), cacheTtl: "1h" },
    ),
    await judge.grade(judgeRequest({ maxTokens: 512, taskPrompt: "Grade criterion 2 now." }), {
      slot: slotSpy(),
    }),
  ];
  expect(outcomes.map((o) => o.ok)).toEqual([true, true, true]);
  expect(received).toHaveLength(4);
  const text = received.map(masked).join("\n----\n");
  if (process.env.WRITE_WIRE_FIXTURE === "1") writeFileSync(FIXTURE, text);
  expect(text).toBe(readFileSync(FIXTURE, "utf8"));
});
