import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import { afterEach, describe, expect, it } from "vitest";
import { startFakeMessagesApi, type FakeMessagesApi } from "../support/fake-messages-api";

// The stand-in itself: it must answer in the real API's shapes, or the judge
// tests prove nothing about the real API.

let api: FakeMessagesApi | undefined;
let child: ChildProcess | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
  child?.kill("SIGTERM");
  child = undefined;
});

const headers = {
  "content-type": "application/json",
  "x-api-key": "sk-ant-test",
  "anthropic-version": "2023-06-01",
};
const body = {
  model: "claude-haiku-4-5",
  max_tokens: 100,
  system: "rubric",
  messages: [{ role: "user", content: "candidate" }],
  tools: [{ name: "record_verdict", input_schema: { type: "object" } }],
};
const post = (url: string, payload: unknown = body, extra: Record<string, string> = {}) =>
  fetch(`${url}/v1/messages`, {
    method: "POST",
    headers: { ...headers, ...extra },
    body: JSON.stringify(payload),
  });

describe("the fake Messages API", () => {
  it("answers a verdict as a tool_use message with the real usage fields", async () => {
    api = await startFakeMessagesApi();
    const response = await post(api.url);
    expect(response.status).toBe(200);
    const message = (await response.json()) as Record<string, unknown>;
    expect(message).toMatchObject({
      type: "message",
      role: "assistant",
      model: "claude-haiku-4-5",
      stop_reason: "tool_use",
      content: [{ type: "tool_use", name: "record_verdict", input: { reasoning: "ok", score: 1 } }],
      usage: { output_tokens: 60, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
    });
    expect(message.id).toMatch(/^msg_/);
    expect((message.usage as { input_tokens: number }).input_tokens).toBe(
      Math.ceil(JSON.stringify(body).length / 4),
    );
    expect(api.requests[0]).toMatchObject({
      system: "rubric",
      user: "candidate",
      toolName: "record_verdict",
      index: 0,
    });
  });

  it.each([
    [429, "rate_limit_error"],
    [529, "overloaded_error"],
    [500, "api_error"],
  ])("answers %i with an error body of type %s", async (status, type) => {
    api = await startFakeMessagesApi({
      respond: () => ({ status, headers: { "retry-after": "1" } }),
    });
    const response = await post(api.url);
    expect(response.status).toBe(status);
    expect(response.headers.get("retry-after")).toBe("1");
    expect(await response.json()).toMatchObject({ type: "error", error: { type } });
  });

  it("rejects what the real API rejects: no key, and a tool_use without its tool_result", async () => {
    api = await startFakeMessagesApi();
    const { "x-api-key": _key, ...noKey } = headers;
    const unauthenticated = await fetch(`${api.url}/v1/messages`, {
      method: "POST",
      headers: noKey,
      body: JSON.stringify(body),
    });
    expect(unauthenticated.status).toBe(401);
    const dangling = await post(api.url, {
      ...body,
      messages: [
        { role: "user", content: "candidate" },
        {
          role: "assistant",
          content: [{ type: "tool_use", id: "toolu_1", name: "record_verdict", input: {} }],
        },
        { role: "user", content: [{ type: "text", text: "again" }] },
      ],
    });
    expect(dangling.status).toBe(400);
    expect(await dangling.json()).toMatchObject({
      error: { type: "invalid_request_error", message: expect.stringMatching(/tool_result/) },
    });
  });

  it("rejects sampling parameters under API version 2026-10-21, as the real API does", async () => {
    api = await startFakeMessagesApi();
    const current = await post(
      api.url,
      { ...body, temperature: 1 },
      { "anthropic-version": "2026-10-21" },
    );
    expect(current.status).toBe(400);
    expect(await current.json()).toMatchObject({
      error: {
        type: "invalid_request_error",
        message: "temperature: Extra inputs are not permitted",
      },
    });
    const legacy = await post(api.url, { ...body, temperature: 1 });
    expect(legacy.status).toBe(200);
  });

  it("counts requests in flight", async () => {
    api = await startFakeMessagesApi({ latencyMs: 100 });
    await Promise.all([post(api.url), post(api.url), post(api.url)]);
    expect(api.maxInFlight()).toBe(3);
    expect(api.inFlight()).toBe(0);
  });

  it("runs as its own process, printing READY <url>, and answers the given share of requests 429", async () => {
    child = spawn(
      process.execPath,
      [
        "--import",
        "tsx",
        "test/support/fake-messages-api-main.ts",
        "--rate-429",
        "1",
        "--retry-after",
        "1",
      ],
      {
        stdio: ["ignore", "pipe", "inherit"],
      },
    );
    const lines = createInterface({ input: child.stdout! });
    const url = await new Promise<string>((resolve, reject) => {
      lines.on("line", (line) => {
        const match = /^READY (\S+)$/.exec(line);
        if (match) resolve(match[1]!);
      });
      child!.once("exit", (code) => reject(new Error(`exited with ${code}`)));
    });
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const response = await post(url);
    expect(response.status).toBe(429);
    expect(response.headers.get("retry-after")).toBe("1");
    expect(await response.json()).toMatchObject({
      type: "error",
      error: { type: "rate_limit_error" },
    });
  });
});
