import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runSuite } from "../../../lib/engine/run-suite";
import { createAnthropicJudge } from "../../../lib/judge/anthropic-judge";
import {
  startFakeMessagesApi,
  type FakeMessagesApi,
  type FakeReply,
} from "../../support/fake-messages-api";
import { suiteFrom } from "../../support/run-yaml";
import { FAKE_API_KEY } from "../../judge/judge-helpers";

// A holistic review whose verdict leaves a category out is a malformed reply
// like any other: it gets the one repair attempt, through the real Anthropic
// adapter against the stand-in Messages API, before it may become a judge_error.

const MODEL = "claude-haiku-4-5-20251001";

const suite = `
rubrics:
  prd:
    name: PRD review
    review_type: prd
    evaluation_type: holistic
    categories:
      - { id: problem, name: Problem statement, description: "States who has the problem." }
      - { id: metrics, name: Success metrics, description: "Defines measurable success metrics." }
evals:
  - name: checkout prd
    document: "# Checkout v2\\nUsers abandon carts. Target: p95 under 2s."
    rubric: { ref: prd }
`;

const entry = (category: string) => ({
  category,
  reasoning: `${category} is covered`,
  score: "pass",
  evidence: [],
  findings: [],
});
const onlyProblem: FakeReply = {
  toolInput: { reasoning: "short", categories: [entry("problem")] },
};
const complete: FakeReply = {
  toolInput: { reasoning: "whole document", categories: [entry("problem"), entry("metrics")] },
};

let api: FakeMessagesApi;
beforeEach(async () => {
  api = await startFakeMessagesApi();
});
afterEach(async () => {
  await api.close();
});

async function review(...replies: FakeReply[]) {
  api.setRespond(({ index }) => replies[Math.min(index, replies.length - 1)]!);
  const report = await runSuite(
    { suite: suiteFrom(suite), defaultModel: MODEL, concurrency: 1, toolVersion: "0.0.0-test" },
    {
      judge: createAnthropicJudge({ apiKey: FAKE_API_KEY, baseURL: api.url, timeoutMs: 2_000 }),
      now: Date.now,
      priceOf: () => undefined,
    },
  );
  return report.results[0]!;
}

type Block = { type: string; content?: unknown };

describe("a holistic review with a missing category", () => {
  it("gets its repair attempt, which names the missing category, and a complete repair is graded", async () => {
    const result = await review(onlyProblem, complete);
    expect(api.requests).toHaveLength(2);
    const correction = (api.requests[1]!.body.messages as { role: string; content: Block[] }[]).at(
      -1,
    )!;
    expect(String(correction.content[0]!.content)).toContain('no entry for category "metrics"');
    expect(result.status).toBe("passed");
    expect(result.review!.report.categories.map((c) => [c.category, c.score])).toEqual([
      ["problem", "pass"],
      ["metrics", "pass"],
    ]);
  });

  it("is a judge_error when the repair leaves it out too, never a pass or a fail", async () => {
    const result = await review(onlyProblem, onlyProblem);
    expect(api.requests).toHaveLength(2);
    expect(result.status).toBe("judge_error");
    expect(result.reason).toContain("no valid verdict after one repair attempt");
    expect(result.reason).toContain('no entry for category "metrics"');
    expect(result.review).toBeUndefined();
  });
});
