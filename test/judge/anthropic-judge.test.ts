import { createServer } from "node:net";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createAnthropicJudge, type AnthropicJudgeOptions } from "../../lib/judge/anthropic-judge";
import {
  startFakeMessagesApi,
  type FakeMessagesApi,
  type FakeReply,
} from "../support/fake-messages-api";
import { FAKE_API_KEY, judgeRequest, recordingSleep, semaphore, slotSpy } from "./judge-helpers";

// The adapter through the real SDK over HTTP against the fake Messages API.

let api: FakeMessagesApi;
beforeEach(async () => {
  api = await startFakeMessagesApi();
});
afterEach(async () => {
  await api.close();
});

function judge(options: Partial<AnthropicJudgeOptions> = {}) {
  return createAnthropicJudge({
    apiKey: FAKE_API_KEY,
    baseURL: api.url,
    timeoutMs: 2_000,
    random: () => 0.5,
    ...options,
  });
}

/** Replies in order; the last one repeats. */
function inOrder(...replies: FakeReply[]) {
  return ({ index }: { index: number }) =>
    replies[Math.min(index, replies.length - 1)] as FakeReply;
}

describe("a verdict on the first attempt", () => {
  it("sends the stable prompt first with a cache breakpoint, the candidate last, and forces the verdict tool", async () => {
    api.setRespond(() => ({ verdict: { reasoning: "names Paris", score: 0.8 } }));
    const request = judgeRequest();
    const outcome = await judge().grade(request, { slot: slotSpy() });

    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    expect(outcome.verdict).toEqual({ reasoning: "names Paris", score: 0.8 });
    expect(outcome.call.raw).toEqual({ reasoning: "names Paris", score: 0.8 });
    expect(outcome.call).toMatchObject({
      model: request.model,
      templateVersion: "criterion-v3",
      attempts: 1,
    });

    expect(api.requests).toHaveLength(1);
    const sent = api.requests[0]!;
    expect(sent.path).toBe("/v1/messages");
    expect(JSON.stringify(sent.headers)).toContain(FAKE_API_KEY);
    // A prefix far below the model's minimum cacheable length gets no breakpoint: it could cache nothing.
    expect(sent.body.system).toEqual([{ type: "text", text: request.stablePrompt }]);
    const messages = sent.body.messages as Array<{ role: string; content: unknown }>;
    expect(messages.at(-1)).toEqual({
      role: "user",
      content: [
        { type: "text", text: request.candidatePrompt },
        { type: "text", text: request.taskPrompt },
      ],
    });
    expect(sent.body.tool_choice).toEqual({ type: "tool", name: "record_verdict" });
    expect(sent.body).toMatchObject({ model: request.model, max_tokens: 1024 });
    // API version 2026-10-21 answers 400 to any sampling parameter.
    expect(sent.headers["anthropic-version"]).toBe("2026-10-21");
    expect(sent.body).not.toHaveProperty("temperature");
    const tools = sent.body.tools as Array<{ name: string; input_schema: Record<string, unknown> }>;
    expect(tools).toHaveLength(1);
    expect(tools[0]!.name).toBe("record_verdict");
    expect(tools[0]!.input_schema).not.toHaveProperty("$schema");
    expect(tools[0]!.input_schema).toMatchObject({
      type: "object",
      required: ["reasoning", "score"],
    });
    expect(Object.keys(tools[0]!.input_schema.properties as object)).toEqual([
      "reasoning",
      "score",
      "evidence",
    ]);
  });

  it("records usage with cache writes and reads, and prices it (claude-opus-4-5: $5 in, $25 out per MTok)", async () => {
    api.setRespond(
      inOrder(
        {
          verdict: { reasoning: "a", score: 1 },
          usage: {
            input_tokens: 100,
            output_tokens: 50,
            cache_creation_input_tokens: 2000,
            cache_read_input_tokens: 0,
          },
        },
        {
          verdict: { reasoning: "b", score: 0 },
          usage: {
            input_tokens: 100,
            output_tokens: 50,
            cache_creation_input_tokens: 0,
            cache_read_input_tokens: 2000,
          },
        },
      ),
    );
    const j = judge();
    const request = judgeRequest({ model: "claude-opus-4-5-20251101" });
    const first = await j.grade(request, { slot: slotSpy() });
    const second = await j.grade(request, { slot: slotSpy() });

    expect(first.call.usage).toEqual({ input: 100, output: 50, cacheWrite: 2000, cacheRead: 0 });
    // (100 × $5 + 2000 × $5 × 1.25 + 50 × $25) / 1M = (500 + 12500 + 1250) / 1M
    expect(first.call.costUsd).toBeCloseTo(0.01425, 12);
    expect(second.call.usage).toEqual({ input: 100, output: 50, cacheWrite: 0, cacheRead: 2000 });
    // (100 × $5 + 2000 × $5 × 0.1 + 50 × $25) / 1M = (500 + 1000 + 1250) / 1M
    expect(second.call.costUsd).toBeCloseTo(0.00275, 12);
  });

  it("records the wall time of the call", async () => {
    await api.close();
    api = await startFakeMessagesApi({ latencyMs: 60 });
    const outcome = await judge().grade(judgeRequest(), { slot: slotSpy() });
    expect(outcome.ok).toBe(true);
    expect(outcome.call.latencyMs).toBeGreaterThanOrEqual(55);
  });

  it("asks for the evidence field when the criterion requires evidence", async () => {
    api.setRespond(() => ({ verdict: { reasoning: "quotes it", score: 1, evidence: "Paris" } }));
    const outcome = await judge().grade(judgeRequest({ verdict: "score_with_evidence" }), {
      slot: slotSpy(),
    });
    expect(outcome.ok && outcome.verdict.evidence).toBe("Paris");
    const tools = api.requests[0]!.body.tools as Array<{ input_schema: { required: string[] } }>;
    expect(tools[0]!.input_schema.required).toEqual(["reasoning", "score", "evidence"]);
  });

  it("prices nothing for a model outside the pricing table", async () => {
    const outcome = await judge().grade(judgeRequest({ model: "claude-experimental-9" }), {
      slot: slotSpy(),
    });
    expect(outcome.ok).toBe(true);
    expect(outcome.call.costUsd).toBeNull();
    expect(outcome.call.usage.output).toBe(60);
  });
});

describe("retries", () => {
  it("waits out a 429's retry-after of 1 s without holding the slot, then succeeds", async () => {
    api.setRespond(
      inOrder(
        { status: 429, headers: { "retry-after": "1" } },
        { verdict: { reasoning: "ok", score: 1 } },
      ),
    );
    const events: string[] = [];
    const { sleep, waits } = recordingSleep(events);
    const slot = slotSpy(events);
    const outcome = await judge({ sleep }).grade(judgeRequest(), { slot });

    expect(outcome.ok).toBe(true);
    expect(outcome.call.attempts).toBe(2);
    expect(api.requests).toHaveLength(2);
    expect(waits).toEqual([1000]);
    expect(events).toEqual(["release", "sleep 1000", "acquire"]);
    expect(slot.held()).toBe(true);
  });

  it("honours retry-after-ms and an HTTP-date retry-after", async () => {
    const now = Date.parse("2025-06-01T12:00:00Z");
    api.setRespond(
      inOrder(
        { status: 429, headers: { "retry-after-ms": "250", "retry-after": "9" } },
        { status: 429, headers: { "retry-after": new Date(now + 3000).toUTCString() } },
        { verdict: { reasoning: "ok", score: 1 } },
      ),
    );
    const { sleep, waits } = recordingSleep();
    const outcome = await judge({ sleep, now: () => now }).grade(judgeRequest(), {
      slot: slotSpy(),
    });
    expect(outcome.ok).toBe(true);
    expect(waits).toEqual([250, 3000]);
  });

  it("lets another call use the slot while one waits out a rate limit", async () => {
    const order: string[] = [];
    api.setRespond(({ user }) => {
      if (user.includes("first") && !order.includes("first limited")) {
        order.push("first limited");
        return { status: 429, headers: { "retry-after-ms": "300" } };
      }
      order.push(user.includes("first") ? "first graded" : "second graded");
      return { verdict: { reasoning: "ok", score: 1 } };
    });
    const slots = semaphore(1);
    const j = judge();
    const run = async (candidatePrompt: string) => {
      await slots.take();
      try {
        return await j.grade(judgeRequest({ candidatePrompt }), { slot: slots.slot() });
      } finally {
        slots.give();
      }
    };
    const [a, b] = await Promise.all([run("first"), run("second")]);
    expect(a.ok && b.ok).toBe(true);
    // With one slot, the second call could only run while the first gave its slot back.
    expect(order).toEqual(["first limited", "second graded", "first graded"]);
    expect(api.maxInFlight()).toBe(1);
  });

  it("backs off exponentially on 529 and succeeds on the third attempt", async () => {
    api.setRespond(
      inOrder({ status: 529 }, { status: 529 }, { verdict: { reasoning: "ok", score: 0.5 } }),
    );
    const { sleep, waits } = recordingSleep();
    const outcome = await judge({ sleep }).grade(judgeRequest(), { slot: slotSpy() });
    expect(outcome.ok).toBe(true);
    expect(outcome.call.attempts).toBe(3);
    // random() = 0.5: half of 500 ms fixed + a quarter jitter, then the same of 1000 ms.
    expect(waits).toEqual([375, 750]);
  });

  it("gives up on 529 after maxRetries + 1 attempts with an overloaded error, not a verdict", async () => {
    api.setRespond(() => ({ status: 529 }));
    const { sleep, waits } = recordingSleep();
    const slot = slotSpy();
    const outcome = await judge({ sleep, maxRetries: 4 }).grade(judgeRequest(), { slot });
    expect(outcome.ok).toBe(false);
    expect(outcome).not.toHaveProperty("verdict");
    if (outcome.ok) return;
    expect(outcome.error.kind).toBe("overloaded");
    expect(outcome.error.message).toMatch(/5 attempts.*529/);
    expect(api.requests).toHaveLength(5);
    expect(outcome.call.attempts).toBe(5);
    expect(waits).toEqual([375, 750, 1500, 3000]);
    expect(slot.held()).toBe(true);
  });

  it("reports a 500 that never clears as a server error and a 429 that never clears as rate_limited", async () => {
    const { sleep } = recordingSleep();
    api.setRespond(() => ({ status: 500 }));
    const server = await judge({ sleep, maxRetries: 1 }).grade(judgeRequest(), { slot: slotSpy() });
    expect(!server.ok && server.error.kind).toBe("server");
    api.setRespond(() => ({ status: 429, headers: { "retry-after": "2" } }));
    const limited = await judge({ sleep, maxRetries: 1 }).grade(judgeRequest(), {
      slot: slotSpy(),
    });
    expect(!limited.ok && limited.error).toMatchObject({
      kind: "rate_limited",
      message: expect.stringMatching(/2 attempts.*429/),
    });
  });

  it("retries an attempt that hangs past the timeout, and reports timeout when every attempt hangs", async () => {
    api.setRespond(inOrder({ hang: true }, { verdict: { reasoning: "ok", score: 1 } }));
    const { sleep } = recordingSleep();
    const recovered = await judge({ sleep, timeoutMs: 300 }).grade(judgeRequest(), {
      slot: slotSpy(),
    });
    expect(recovered.ok).toBe(true);
    expect(recovered.call.attempts).toBe(2);

    api.setRespond(() => ({ hang: true }));
    const started = Date.now();
    const lost = await judge({ sleep, timeoutMs: 300, maxRetries: 1 }).grade(judgeRequest(), {
      slot: slotSpy(),
    });
    expect(!lost.ok && lost.error).toMatchObject({
      kind: "timeout",
      message: expect.stringMatching(/2 attempts/),
    });
    expect(Date.now() - started).toBeGreaterThanOrEqual(550);
    expect(api.requests).toHaveLength(4);
    // The client hung up on the fake each time.
    await vi.waitFor(() => expect(api.inFlight()).toBe(0));
  });

  it("reports a connection error when nothing listens, after retrying", async () => {
    const port = await freePort();
    const { sleep, waits } = recordingSleep();
    const outcome = await createAnthropicJudge({
      apiKey: FAKE_API_KEY,
      baseURL: `http://127.0.0.1:${port}`,
      maxRetries: 2,
      sleep,
    }).grade(judgeRequest(), { slot: slotSpy() });
    expect(!outcome.ok && outcome.error.kind).toBe("connection");
    expect(outcome.call.attempts).toBe(3);
    expect(waits).toHaveLength(2);
  });
});

describe("errors that a retry cannot fix", () => {
  it.each([
    [400, "request"],
    [401, "auth"],
    [403, "auth"],
    [404, "request"],
  ] as const)("%i is not retried and is reported as %s", async (status, kind) => {
    api.setRespond(() => ({ status }));
    const { sleep, waits } = recordingSleep();
    const outcome = await judge({ sleep }).grade(judgeRequest(), { slot: slotSpy() });
    expect(!outcome.ok && outcome.error.kind).toBe(kind);
    expect(api.requests).toHaveLength(1);
    expect(waits).toEqual([]);
  });

  it("stops at once when the run is aborted during an attempt", async () => {
    api.setRespond(() => ({ hang: true }));
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const started = Date.now();
    const outcome = await judge({ timeoutMs: 10_000 }).grade(judgeRequest(), {
      slot: slotSpy(),
      signal: controller.signal,
    });
    expect(!outcome.ok && outcome.error.kind).toBe("request");
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(api.requests).toHaveLength(1);
  });

  it("stops waiting out a retry-after when aborted, and returns holding the slot", async () => {
    api.setRespond(() => ({ status: 429, headers: { "retry-after": "30" } }));
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const slot = slotSpy();
    const started = Date.now();
    const outcome = await judge().grade(judgeRequest(), { slot, signal: controller.signal });
    expect(!outcome.ok && outcome.error.kind).toBe("request");
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(slot.events).toEqual(["release", "acquire"]);
    expect(slot.held()).toBe(true);
    expect(api.requests).toHaveLength(1);
  });
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
