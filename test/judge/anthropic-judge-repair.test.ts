import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createAnthropicJudge } from "../../lib/judge/anthropic-judge";
import {
  startFakeMessagesApi,
  type FakeMessagesApi,
  type FakeReply,
} from "../support/fake-messages-api";
import { FAKE_API_KEY, judgeRequest, recordingSleep, slotSpy } from "./judge-helpers";

// A reply that is not a valid verdict gets one repair attempt, then becomes a
// malformed judge error: never a pass, never a fail.

let api: FakeMessagesApi;
beforeEach(async () => {
  api = await startFakeMessagesApi();
});
afterEach(async () => {
  await api.close();
});

const judge = () =>
  createAnthropicJudge({
    apiKey: FAKE_API_KEY,
    baseURL: api.url,
    timeoutMs: 2_000,
    sleep: recordingSleep().sleep,
  });

function inOrder(...replies: FakeReply[]) {
  return ({ index }: { index: number }) =>
    replies[Math.min(index, replies.length - 1)] as FakeReply;
}

type Block = { type: string; [key: string]: unknown };
type Turn = { role: string; content: string | Block[] };

describe("repairing a malformed verdict", () => {
  it("answers a score out of range with an error tool_result, and takes the corrected verdict", async () => {
    api.setRespond(
      inOrder(
        {
          toolInput: { reasoning: "very good", score: 7 },
          usage: { input_tokens: 500, output_tokens: 40 },
        },
        {
          verdict: { reasoning: "very good", score: 0.9 },
          usage: { input_tokens: 600, output_tokens: 30 },
        },
      ),
    );
    const request = judgeRequest();
    const outcome = await judge().grade(request, { slot: slotSpy() });

    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    expect(outcome.verdict.score).toBe(0.9);
    expect(outcome.call.raw).toEqual({ reasoning: "very good", score: 0.9 });
    expect(outcome.call.attempts).toBe(2);
    expect(outcome.call.usage).toEqual({ input: 1100, output: 70, cacheRead: 0, cacheWrite: 0 });

    expect(api.requests).toHaveLength(2);
    const repair = api.requests[1]!;
    // Same stable prefix, so the repair still reads the cache.
    expect(repair.body.system).toEqual(api.requests[0]!.body.system);
    expect(repair.body.tool_choice).toEqual({ type: "tool", name: "record_verdict" });
    const [user, assistant, correction] = repair.body.messages as Turn[];
    expect(user).toEqual(
      api.requests[0]!.body.messages && (api.requests[0]!.body.messages as Turn[])[0],
    );
    expect(JSON.stringify(user)).toContain(JSON.stringify(request.candidatePrompt));
    expect(assistant!.role).toBe("assistant");
    const toolUse = (assistant!.content as Block[]).find((b) => b.type === "tool_use")!;
    expect(toolUse.input).toEqual({ reasoning: "very good", score: 7 });
    expect(correction!.role).toBe("user");
    const result = (correction!.content as Block[])[0]!;
    expect(result).toMatchObject({ type: "tool_result", tool_use_id: toolUse.id, is_error: true });
    expect(String(result.content)).toMatch(/score/);
    expect(String(result.content)).toMatch(/<=\s*1/);
    expect(repair.user).toMatch(/record_verdict/);
  });

  it("answers a text-only reply with a plain correction, and takes the verdict that follows", async () => {
    api.setRespond(
      inOrder(
        { text: "I would give this a 0.8." },
        { verdict: { reasoning: "clear", score: 0.8 } },
      ),
    );
    const outcome = await judge().grade(judgeRequest(), { slot: slotSpy() });

    expect(outcome.ok && outcome.verdict).toEqual({ reasoning: "clear", score: 0.8 });
    const [, assistant, correction] = api.requests[1]!.body.messages as Turn[];
    expect(assistant).toEqual({
      role: "assistant",
      content: [{ type: "text", text: "I would give this a 0.8." }],
    });
    expect(correction!.role).toBe("user");
    expect((correction!.content as Block[])[0]!.type).toBe("text");
    expect(api.requests[1]!.user).toMatch(/did not call the record_verdict tool/);
  });

  it("repairs a verdict that leaves out required evidence", async () => {
    api.setRespond(
      inOrder(
        { toolInput: { reasoning: "fine", score: 1 } },
        { verdict: { reasoning: "fine", score: 1, evidence: "Paris" } },
      ),
    );
    const outcome = await judge().grade(judgeRequest({ verdict: "score_with_evidence" }), {
      slot: slotSpy(),
    });
    expect(outcome.ok && outcome.verdict.evidence).toBe("Paris");
    expect(api.requests[1]!.user).toMatch(/evidence/);
  });

  it("reports malformed, not a score, when the repair is malformed too", async () => {
    api.setRespond(
      inOrder(
        { toolInput: { reasoning: "great", score: 7 } },
        { toolInput: { reasoning: "great", score: "high" } },
      ),
    );
    const outcome = await judge().grade(judgeRequest(), { slot: slotSpy() });

    expect(outcome.ok).toBe(false);
    expect(outcome).not.toHaveProperty("verdict");
    if (outcome.ok) return;
    expect(outcome.error.kind).toBe("malformed");
    expect(outcome.error.message).toMatch(/score/);
    expect(outcome.call.attempts).toBe(2);
    expect(outcome.call.raw).toEqual({ reasoning: "great", score: "high" });
    expect(outcome.call.costUsd).toBeGreaterThan(0);
    expect(api.requests).toHaveLength(2);
  });

  it("reports malformed after two text-only replies, with the text as the raw reply", async () => {
    api.setRespond(() => ({ text: "Looks fine to me." }));
    const outcome = await judge().grade(judgeRequest(), { slot: slotSpy() });
    expect(!outcome.ok && outcome.error.kind).toBe("malformed");
    expect(outcome.call.raw).toBe("Looks fine to me.");
    expect(api.requests).toHaveLength(2);
  });

  it("retries the repair request itself on a 529, counting every HTTP attempt", async () => {
    api.setRespond(
      inOrder({ text: "0.5" }, { status: 529 }, { verdict: { reasoning: "half", score: 0.5 } }),
    );
    const outcome = await judge().grade(judgeRequest(), { slot: slotSpy() });
    expect(outcome.ok && outcome.verdict.score).toBe(0.5);
    expect(outcome.call.attempts).toBe(3);
  });
});
