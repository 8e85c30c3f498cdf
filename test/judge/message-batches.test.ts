import Anthropic from "@anthropic-ai/sdk";
import { describe, expect, it } from "vitest";
import { createBatchJudge } from "../../lib/judge/batch-judge";
import { createMessageBatchesClient } from "../../lib/judge/message-batches-client";
import {
  startFakeMessagesApi,
  type FakeMessagesApi,
  type FakeMessagesApiOptions,
} from "../support/fake-messages-api";
import { FAKE_API_KEY, judgeRequest, slotSpy } from "./judge-helpers";

// The stand-in's Message Batches endpoints through the SDK's own
// `messages.batches` client (the shapes, request_counts, JSONL results,
// cancel, expiry, per-request errors), and the batch judge's split of a round
// at the API's limits.

async function api(
  onFinished: (fn: () => Promise<void>) => void,
  options: FakeMessagesApiOptions = {},
): Promise<{ fake: FakeMessagesApi; sdk: Anthropic }> {
  const fake = await startFakeMessagesApi(options);
  onFinished(() => fake.close());
  return { fake, sdk: new Anthropic({ apiKey: FAKE_API_KEY, baseURL: fake.url, maxRetries: 0 }) };
}

const params = (text: string): Anthropic.MessageCreateParamsNonStreaming => ({
  model: "claude-sonnet-4-5",
  max_tokens: 100,
  messages: [{ role: "user", content: text }],
});

async function resultsOf(sdk: Anthropic, id: string) {
  const out: Record<string, Anthropic.Messages.MessageBatchResult["type"]> = {};
  for await (const line of await sdk.messages.batches.results(id))
    out[line.custom_id] = line.result.type;
  return out;
}

describe("the stand-in's Message Batches endpoints", () => {
  it("creates a batch in progress, counts it, then serves every result as JSONL: succeeded, errored, expired", async ({
    onTestFinished,
  }) => {
    const { fake, sdk } = await api(onTestFinished, {
      batches: { hold: true },
      respond: (request) =>
        request.user === "late"
          ? { batchResult: "expired" }
          : request.user === "busy"
            ? { status: 529 }
            : { text: "fine" },
    });
    const created = await sdk.messages.batches.create({
      requests: [
        { custom_id: "a", params: params("hello") },
        { custom_id: "b", params: params("busy") },
        { custom_id: "c", params: params("late") },
        {
          custom_id: "d",
          params: { ...params("no max"), max_tokens: undefined as unknown as number },
        },
      ],
    });
    expect(created).toMatchObject({
      type: "message_batch",
      processing_status: "in_progress",
      results_url: null,
      request_counts: { processing: 4, succeeded: 0 },
    });
    await expect(sdk.messages.batches.results(created.id)).rejects.toThrow(
      /No batch `results_url`/,
    );

    fake.releaseBatches();
    const ended = await sdk.messages.batches.retrieve(created.id);
    expect(ended.processing_status).toBe("ended");
    expect(ended.request_counts).toEqual({
      processing: 0,
      succeeded: 1,
      errored: 2,
      canceled: 0,
      expired: 1,
    });
    expect(await resultsOf(sdk, created.id)).toEqual({
      a: "succeeded",
      b: "errored",
      c: "expired",
      d: "errored",
    });
    expect([...fake.batchBilled]).toEqual([["a", 1]]);
  });

  it("cancels a batch in progress: its unprocessed requests are canceled and nothing is billed", async ({
    onTestFinished,
  }) => {
    const { fake, sdk } = await api(onTestFinished, { batches: { hold: true } });
    const created = await sdk.messages.batches.create({
      requests: [{ custom_id: "x", params: params("one") }],
    });
    const cancelled = await sdk.messages.batches.cancel(created.id);
    expect(cancelled.processing_status).toBe("ended");
    expect(cancelled.request_counts.canceled).toBe(1);
    expect(await resultsOf(sdk, created.id)).toEqual({ x: "canceled" });
    expect(fake.batchBilled.size).toBe(0);
  });

  it("expires every batch still in progress, as the API does after 24 hours", async ({
    onTestFinished,
  }) => {
    const { fake, sdk } = await api(onTestFinished, { batches: { hold: true } });
    const created = await sdk.messages.batches.create({
      requests: [
        { custom_id: "x", params: params("one") },
        { custom_id: "y", params: params("two") },
      ],
    });
    fake.expireBatches();
    expect((await sdk.messages.batches.retrieve(created.id)).request_counts).toMatchObject({
      expired: 2,
      processing: 0,
    });
    expect(await resultsOf(sdk, created.id)).toEqual({ x: "expired", y: "expired" });
  });

  it("refuses a batch whose custom_ids repeat or do not match the API's pattern, and an unknown batch", async ({
    onTestFinished,
  }) => {
    const { sdk } = await api(onTestFinished);
    await expect(
      sdk.messages.batches.create({
        requests: [
          { custom_id: "a", params: params("1") },
          { custom_id: "a", params: params("2") },
        ],
      }),
    ).rejects.toThrow(/not unique/);
    await expect(
      sdk.messages.batches.create({ requests: [{ custom_id: "has space", params: params("1") }] }),
    ).rejects.toThrow(/custom_id/);
    await expect(sdk.messages.batches.retrieve("msgbatch_nope")).rejects.toMatchObject({
      status: 404,
    });
  });
});

describe("the batch judge", () => {
  it("splits a round at the batch limits: 5 calls at 2 requests a batch make 3 batches, every verdict delivered", async ({
    onTestFinished,
  }) => {
    const { fake } = await api(onTestFinished, {
      respond: () => ({ verdict: { reasoning: "ok", score: 0.7 } }),
    });
    const judge = createBatchJudge({
      client: createMessageBatchesClient({
        apiKey: FAKE_API_KEY,
        baseURL: fake.url,
        timeoutMs: 5000,
      }),
      pollMs: 10,
      limits: { requests: 2, bytes: 256 * 1024 * 1024 },
    });
    const outcomes = await Promise.all(
      [1, 2, 3, 4, 5].map((n) =>
        judge.grade(judgeRequest({ taskPrompt: `Grade criterion ${n}.` }), { slot: slotSpy() }),
      ),
    );
    expect(outcomes.map((o) => o.ok && o.verdict.score)).toEqual([0.7, 0.7, 0.7, 0.7, 0.7]);
    expect(fake.batches.map((b) => b.requests.length)).toEqual([2, 2, 1]);
  });

  it("splits a round at the byte limit too", async ({ onTestFinished }) => {
    const { fake } = await api(onTestFinished, {
      respond: () => ({ verdict: { reasoning: "ok", score: 0.7 } }),
    });
    // Each request is over 2,400 bytes (its candidate alone): at 4,000 bytes a batch, each goes alone.
    const judge = createBatchJudge({
      client: createMessageBatchesClient({
        apiKey: FAKE_API_KEY,
        baseURL: fake.url,
        timeoutMs: 5000,
      }),
      pollMs: 10,
      limits: { requests: 100, bytes: 4000 },
    });
    await Promise.all(
      [1, 2, 3].map((n) =>
        judge.grade(judgeRequest({ candidatePrompt: `${"long candidate ".repeat(160)}${n}` }), {
          slot: slotSpy(),
        }),
      ),
    );
    expect(fake.batches.map((b) => b.requests.length)).toEqual([1, 1, 1]);
    expect(fake.batches.flatMap((b) => b.requests)).toHaveLength(3);
  });
});
