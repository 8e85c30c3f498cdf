import { describe, expect, it } from "vitest";
import type { FakeReply } from "../../support/fake-messages-api";
import { standInPerTest } from "../../support/stand-in-run";

// A holistic review whose verdict leaves a category out is a malformed reply
// like any other: it gets the one repair attempt, through the real Anthropic
// adapter against the stand-in Messages API, before it may become a judge_error.

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

const standIn = standInPerTest();

async function review(...replies: FakeReply[]) {
  standIn.api().setRespond(({ index }) => replies[Math.min(index, replies.length - 1)]!);
  return standIn.run(suite);
}

type Block = { type: string; content?: unknown };

describe("a holistic review with a missing category", () => {
  it("gets its repair attempt, which names the missing category, and a complete repair is graded", async () => {
    const result = await review(onlyProblem, complete);
    expect(standIn.api().requests).toHaveLength(2);
    const correction = (
      standIn.api().requests[1]!.body.messages as { role: string; content: Block[] }[]
    ).at(-1)!;
    expect(String(correction.content[0]!.content)).toContain('no entry for category "metrics"');
    expect(result.status).toBe("passed");
    expect(result.review!.report.categories.map((c) => [c.category, c.score])).toEqual([
      ["problem", "pass"],
      ["metrics", "pass"],
    ]);
  });

  it("is a judge_error when the repair leaves it out too, never a pass or a fail", async () => {
    const result = await review(onlyProblem, onlyProblem);
    expect(standIn.api().requests).toHaveLength(2);
    expect(result.status).toBe("judge_error");
    expect(result.reason).toContain("no valid verdict after one repair attempt");
    expect(result.reason).toContain('no entry for category "metrics"');
    expect(result.review).toBeUndefined();
  });
});
