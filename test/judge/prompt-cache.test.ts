import { afterEach, describe, expect, it } from "vitest";
import { createAnthropicJudge } from "../../lib/judge/anthropic-judge";
import { CACHE_MINIMUM_MODELS, cacheMinimumOf } from "../../lib/judge/cache-minimums";
import { PRICED_MODELS } from "../../lib/judge/pricing";
import type { CacheTtl } from "../../lib/engine/ports/judge-port";
import { startFakeMessagesApi, type FakeMessagesApi } from "../support/fake-messages-api";
import type { PromptCacheOptions } from "../support/prompt-cache";
import { FAKE_API_KEY, judgeRequest, slotSpy } from "./judge-helpers";

// The adapter's cache breakpoints against the stand-in's prompt-cache
// emulation: the rubric prefix and the candidate are written once and read by
// the calls that share them; a prefix too short to cache gets no breakpoint;
// a prefix that should have been written and was not is reported.

let api: FakeMessagesApi | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
});

async function start(promptCache: PromptCacheOptions = {}, latencyMs = 0) {
  api = await startFakeMessagesApi({
    promptCache,
    latencyMs,
    respond: () => ({ verdict: { reasoning: "ok", score: 1 } }),
  });
  return createAnthropicJudge({ apiKey: FAKE_API_KEY, baseURL: api.url, timeoutMs: 2_000 });
}

// claude-sonnet-4-5 caches from 1,024 tokens: a rubric of ~2,000 and a candidate of ~1,000.
const RUBRIC = `You grade against this rubric.\n${"## Criterion: thorough\nCovers every part of the question in depth.\n".repeat(110)}`;
const request = (candidate: string, task: string) =>
  judgeRequest({
    model: "claude-sonnet-4-5",
    stablePrompt: RUBRIC,
    candidatePrompt: `<candidate_response>\n${candidate.repeat(200)}\n</candidate_response>`,
    taskPrompt: task,
  });
const grade = async (
  judge: Awaited<ReturnType<typeof start>>,
  r: ReturnType<typeof request>,
  cacheTtl?: CacheTtl,
) => {
  const outcome = await judge.grade(r, { slot: slotSpy(), ...(cacheTtl ? { cacheTtl } : {}) });
  return outcome;
};

describe("cache breakpoints against the emulated prompt cache", () => {
  it("writes the rubric and the candidate once, then reads them for the next criterion and the next candidate", async () => {
    const judge = await start();
    const first = await grade(judge, request("Paris. ", 'Grade "correct" now.'));
    expect(first.call.usage.cacheRead).toBe(0);
    expect(first.call.usage.cacheWrite).toBeGreaterThan(2_000);
    // Same rubric, same candidate, another criterion: both prefixes read, only the task is new.
    const second = await grade(judge, request("Paris. ", 'Grade "brief" now.'));
    expect(second.call.usage.cacheWrite).toBe(0);
    expect(second.call.usage.cacheRead).toBe(first.call.usage.cacheWrite);
    expect(second.call.usage.input).toBeLessThan(30);
    // Another candidate: the rubric is read, its candidate written.
    const third = await grade(judge, request("Lyon. ", 'Grade "correct" now.'));
    expect(third.call.usage.cacheRead).toBeGreaterThan(1_500);
    expect(third.call.usage.cacheRead).toBeLessThan(first.call.usage.cacheWrite);
    expect(third.call.usage.cacheWrite).toBeGreaterThan(0);
    const system = api!.requests[0]!.body.system as Array<{ cache_control?: unknown }>;
    expect(system[0]!.cache_control).toEqual({ type: "ephemeral" });
    const user = (
      api!.requests[0]!.body.messages as Array<{ content: Array<{ cache_control?: unknown }> }>
    )[0]!.content;
    expect(user.map((b) => b.cache_control)).toEqual([{ type: "ephemeral" }, undefined]);
  });

  it("misses on every concurrent request that shares a new prefix: an entry is readable only once a response has begun", async () => {
    const judge = await start({}, 100);
    const both = await Promise.all([
      grade(judge, request("Paris. ", "a")),
      grade(judge, request("Paris. ", "b")),
    ]);
    expect(both.map((o) => o.call.usage.cacheRead)).toEqual([0, 0]);
    expect(both.every((o) => o.call.usage.cacheWrite > 2_000)).toBe(true);
  });

  it("gives the rubric prefix a 1-hour TTL when the engine asks for one, the candidate 5 minutes", async () => {
    const judge = await start();
    await grade(judge, request("Paris. ", "a"), "1h");
    const body = api!.requests[0]!.body;
    expect((body.system as Array<{ cache_control?: unknown }>)[0]!.cache_control).toEqual({
      type: "ephemeral",
      ttl: "1h",
    });
    expect(
      (body.messages as Array<{ content: Array<{ cache_control?: unknown }> }>)[0]!.content[0]!
        .cache_control,
    ).toEqual({ type: "ephemeral" });
  });

  it("counts and prices the 1-hour writes as the API bills them: 2× input, not the 5-minute 1.25×", async () => {
    const judge = await start();
    const outcome = await grade(judge, request("Paris. ", "a"), "1h");
    const billed = api!.usage();
    // The stand-in wrote the rubric for an hour and the candidate for five minutes, as the API splits it in usage.cache_creation.
    expect(billed.cacheWrite1h).toBeGreaterThan(2_000);
    expect(billed.cacheWrite).toBeGreaterThan(billed.cacheWrite1h);
    expect(outcome.call.usage).toMatchObject({
      cacheWrite: billed.cacheWrite,
      cacheWrite1h: billed.cacheWrite1h,
    });
    // claude-sonnet-4-5: $3 per million input tokens, $15 output.
    const usd =
      (billed.input * 3 +
        (billed.cacheWrite - billed.cacheWrite1h) * 3 * 1.25 +
        billed.cacheWrite1h * 3 * 2 +
        outcome.call.usage.output * 15) /
      1_000_000;
    expect(outcome.call.costUsd).toBeCloseTo(usd, 10);
  });

  it("puts no breakpoint after a candidate that no other call sends, and still caches the rubric", async () => {
    const judge = await start();
    await grade(judge, { ...request("Paris. ", "a"), candidateShared: false });
    const body = api!.requests[0]!.body;
    expect((body.system as Array<{ cache_control?: unknown }>)[0]!.cache_control).toEqual({
      type: "ephemeral",
    });
    expect(
      (body.messages as Array<{ content: Array<{ cache_control?: unknown }> }>)[0]!.content.map(
        (b) => b.cache_control,
      ),
    ).toEqual([undefined, undefined]);
  });

  it("places no breakpoint on a prefix below the model's minimum (claude-haiku-4-5: 4,096 tokens)", async () => {
    const judge = await start();
    const outcome = await grade(judge, { ...request("Paris. ", "a"), model: "claude-haiku-4-5" });
    expect(JSON.stringify(api!.requests[0]!.body)).not.toContain("cache_control");
    expect(outcome.call.usage.cacheWrite).toBe(0);
    expect(outcome.notice).toBeUndefined();
  });

  it("says so when a prefix that should have been written was neither written nor read", async () => {
    // The stand-in's minimum is above what the table says for the model: nothing is cached.
    const judge = await start({ minTokens: 100_000 });
    const outcome = await grade(judge, request("Paris. ", "a"));
    expect(outcome.call.usage).toMatchObject({ cacheWrite: 0, cacheRead: 0 });
    expect(outcome.notice).toMatch(
      /claude-sonnet-4-5 neither wrote nor read a prefix of about \d+ tokens \(cache_creation_input_tokens = 0\)/,
    );
  });
});

describe("the cache minimums table", () => {
  it("lists every priced model, by family and by snapshot id", () => {
    expect([...CACHE_MINIMUM_MODELS].sort()).toEqual([...PRICED_MODELS].sort());
    expect(cacheMinimumOf("claude-sonnet-4-5-20250929")).toBe(1024);
    expect(cacheMinimumOf("claude-haiku-4-5")).toBe(4096);
    expect(cacheMinimumOf("claude-3-5-haiku-latest")).toBe(2048);
    expect(cacheMinimumOf("gpt-4o")).toBeUndefined();
  });
});
