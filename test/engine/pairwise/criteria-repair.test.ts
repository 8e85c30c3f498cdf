import { describe, expect, it } from "vitest";
import type { FakeReply } from "../../support/fake-messages-api";
import { standInPerTest } from "../../support/stand-in-run";

// A comparison with criteria whose verdict gives no per-criterion entry is a
// malformed reply, not a tie on every criterion: it gets the one repair
// attempt, through the real Anthropic adapter against the stand-in Messages
// API, and then it is a judge_error.

const suite = `
evals:
  - name: notes v1 vs v2
    rubric:
      criteria:
        - { name: accurate, description: "States what changed." }
        - { name: actionable, description: "Says what to do." }
    compare:
      labels: { a: v1, b: v2 }
      input: "Write the 2.3 note."
      output_a: "2.3 adds rate limits."
      output_b: "2.3 adds per-tenant rate limits (100 rps)."
`;

const bare: FakeReply = { toolInput: { reasoning: "B is better", winner: "B", confidence: 0.8 } };
const entry = (category: string, winner: string) => ({
  category,
  winner,
  margin: 0.5,
  reasoning: `${category}: ${winner}`,
});
/** Answers in the order asked: B is the better response wherever it is shown. */
const complete = (slot: "A" | "B"): FakeReply => ({
  toolInput: {
    reasoning: "the per-tenant note is better",
    winner: slot,
    confidence: 0.8,
    category_scores: [entry("accurate", slot), entry("Actionable", slot)],
  },
});

const standIn = standInPerTest();

async function compare(reply: (input: { user: string; repair: boolean }) => FakeReply) {
  standIn.api().setRespond((request) => {
    const messages = request.body.messages as unknown[];
    return reply({ user: JSON.stringify(messages[0]), repair: messages.length > 1 });
  });
  return standIn.run(suite);
}

/** The slot the per-tenant note (output B) is shown in. */
const slotOfB = (user: string) =>
  user.indexOf("per-tenant") < user.indexOf("<response_b>") ? "A" : "B";

describe("a pairwise comparison with criteria whose verdict scores none of them", () => {
  it("gets its repair, which names the criteria left out, and a complete repair gives per-criterion winners", async () => {
    const result = await compare(({ user, repair }) => (repair ? complete(slotOfB(user)) : bare));
    expect(standIn.api().requests).toHaveLength(4);
    const correction = JSON.stringify(standIn.api().requests[1]!.body.messages);
    expect(correction).toContain('no entry for criterion \\"accurate\\", \\"actionable\\"');
    expect(result.status).toBe("passed");
    expect(result.pairwise!.categories.map((c) => [c.category, c.winner])).toEqual([
      ["accurate", "B"],
      ["actionable", "B"],
    ]);
  });

  it("is a judge_error when the repair scores none either, never a silent tie", async () => {
    const result = await compare(() => bare);
    expect(standIn.api().requests).toHaveLength(4);
    expect(result.status).toBe("judge_error");
    expect(result.reason).toContain("no valid verdict after one repair attempt");
    expect(result.reason).toContain('no entry for criterion "accurate", "actionable"');
    expect(result.pairwise).toBeUndefined();
  });
});
