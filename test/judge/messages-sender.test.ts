import { afterEach, beforeEach, expect, it, vi } from "vitest";
import { createAnthropicJudge } from "../../lib/judge/anthropic-judge";
import { startFakeMessagesApi, type FakeMessagesApi } from "../support/fake-messages-api";
import { FAKE_API_KEY, judgeRequest, slotSpy } from "./judge-helpers";

// lib/judge/messages-sender.ts: after a client's first request, judge calls
// skip the SDK's per-call request building. What a user sees must not change:
// the SDK's console warning for a deprecated model on every call, and the
// error kinds of failures on the later requests.

let api: FakeMessagesApi;
beforeEach(async () => {
  api = await startFakeMessagesApi();
});
afterEach(async () => {
  vi.restoreAllMocks();
  await api.close();
});

const judge = () =>
  createAnthropicJudge({ apiKey: FAKE_API_KEY, baseURL: api.url, timeoutMs: 2_000, maxRetries: 0 });

it("warns about a deprecated judge model on every call, as the SDK does, and not about a current one", async () => {
  const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
  const client = judge();
  for (let i = 0; i < 3; i++)
    expect(
      (await client.grade(judgeRequest({ model: "claude-sonnet-4-5" }), { slot: slotSpy() })).ok,
    ).toBe(true);
  expect(
    warn.mock.calls.filter(([text]) => String(text).includes("claude-sonnet-4-5")),
  ).toHaveLength(3);
  warn.mockClear();
  for (let i = 0; i < 3; i++)
    expect((await client.grade(judgeRequest(), { slot: slotSpy() })).ok).toBe(true);
  expect(warn).not.toHaveBeenCalled();
  expect(api.requests).toHaveLength(6);
});

it("fails later requests with the kinds the SDK's errors give: rate limit, overload, auth, a bad request", async () => {
  const client = judge();
  expect((await client.grade(judgeRequest(), { slot: slotSpy() })).ok).toBe(true);
  const kinds: string[] = [];
  for (const status of [429, 529, 401, 400]) {
    api.setRespond(() => ({
      status,
      body: { type: "error", error: { type: "api_error", message: `answered ${status}` } },
    }));
    const outcome = await client.grade(judgeRequest(), { slot: slotSpy() });
    kinds.push(outcome.ok ? "ok" : `${outcome.error.kind}: ${outcome.error.message}`);
  }
  expect(kinds).toEqual([
    "rate_limited: answered 429 (1 attempt, last status 429)",
    "overloaded: answered 529 (1 attempt, last status 529)",
    "auth: answered 401 (1 attempt, last status 401)",
    "request: answered 400 (1 attempt, last status 400)",
  ]);
});
