import { getEventListeners } from "node:events";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createAnthropicJudge } from "../../lib/judge/anthropic-judge";
import { startFakeMessagesApi, type FakeMessagesApi } from "../support/fake-messages-api";
import { FAKE_API_KEY, judgeRequest, recordingSleep, semaphore, slotSpy } from "./judge-helpers";

// A run shares one AbortSignal among all its judge calls. Every HTTP attempt
// and every backoff wait listens to it; those listeners must go when the
// attempt or the wait is over, or a run with retries after 529s piles them up
// and Node prints MaxListenersExceededWarning (a leak, and noise in the log).

let api: FakeMessagesApi;
let warnings: Error[];
const onWarning = (warning: Error) => warnings.push(warning);
beforeEach(async () => {
  api = await startFakeMessagesApi();
  warnings = [];
  process.on("warning", onWarning);
});
afterEach(async () => {
  process.off("warning", onWarning);
  await api.close();
});

describe("abort listeners on a run's signal", () => {
  it("are all removed after calls that retried through 529s, and Node prints no MaxListenersExceededWarning", async () => {
    // Each call: two 529s, then a verdict.
    api.setRespond(({ index }) =>
      index % 3 === 2 ? { verdict: { reasoning: "ok", score: 0.5 } } : { status: 529 },
    );
    const run = new AbortController();
    const judge = createAnthropicJudge({
      apiKey: FAKE_API_KEY,
      baseURL: api.url,
      timeoutMs: 2_000,
      random: () => 0.5,
      sleep: recordingSleep().sleep,
    });
    for (let i = 0; i < 8; i++) {
      const outcome = await judge.grade(judgeRequest(), { slot: slotSpy(), signal: run.signal });
      expect(outcome.ok).toBe(true);
    }
    expect(api.requests).toHaveLength(24);
    // Let the SDK settle what it finishes after the reply, then look.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(getEventListeners(run.signal, "abort")).toHaveLength(0);
    expect(warnings.filter((w) => w.name === "MaxListenersExceededWarning")).toEqual([]);
  });

  it("stay few while many calls of one run wait out 529s at once (concurrency 8)", async () => {
    // Every call's first attempt is overloaded; a waiting call gives its slot to the next.
    const first = new Set<string>();
    api.setRespond(({ body }) => {
      const key = JSON.stringify(body.messages);
      if (first.has(key)) return { verdict: { reasoning: "ok", score: 0.5 } };
      first.add(key);
      return { status: 529, headers: { "retry-after": "0.3" } };
    });
    const run = new AbortController();
    const slots = semaphore(8);
    const judge = createAnthropicJudge({
      apiKey: FAKE_API_KEY,
      baseURL: api.url,
      timeoutMs: 5_000,
      random: () => 0,
    });
    let peak = 0;
    const watch = setInterval(
      () => (peak = Math.max(peak, getEventListeners(run.signal, "abort").length)),
      5,
    );
    const outcomes = await Promise.all(
      Array.from({ length: 24 }, async (_, i) => {
        await slots.take();
        try {
          return await judge.grade(
            judgeRequest({ candidatePrompt: `<candidate>answer ${i}</candidate>` }),
            { slot: slots.slot(), signal: run.signal },
          );
        } finally {
          slots.give();
        }
      }),
    );
    clearInterval(watch);
    expect(outcomes.every((o) => o.ok)).toBe(true);
    expect(peak).toBeLessThanOrEqual(2);
    expect(warnings.filter((w) => w.name === "MaxListenersExceededWarning")).toEqual([]);
  });

  it("are removed after real backoff waits, too", async () => {
    api.setRespond(({ index }) =>
      index < 2
        ? { status: 529, headers: { "retry-after": "0" } }
        : { verdict: { reasoning: "ok", score: 0.5 } },
    );
    const run = new AbortController();
    const judge = createAnthropicJudge({
      apiKey: FAKE_API_KEY,
      baseURL: api.url,
      timeoutMs: 2_000,
      random: () => 0,
    });
    const outcome = await judge.grade(judgeRequest(), { slot: slotSpy(), signal: run.signal });
    expect(outcome.ok).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(getEventListeners(run.signal, "abort")).toHaveLength(0);
  });
});
