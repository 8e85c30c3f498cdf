import type { JudgeRequest, VerdictKind } from "../../lib/engine/ports/judge-port";
import { categoryOf, criterionOf, type FakeAnswer } from "./fake-judge";

// A suite whose run leaves the review queue one of each question: a jury
// split on "accurate", a review decided human_review with its panel split on
// "goal", and a position-biased pair; with the fake judge's script for it.

export const RESPONSE = "The 2.3.0 release added per-tenant rate limits.";

export const REVIEW_QUEUE_SUITE = `
evals:
  - name: jury split
    response: "${RESPONSE}"
    judge: { jury: { size: 3 } }
    rubric:
      scale: { likert: { min: 1, max: 5 } }
      criteria:
        - { name: accurate, description: "States the correct change." }
        - { name: concise, description: "Two sentences at most." }
  - name: prd review
    document: "Plan: ship on Friday."
    judge: { panel: [judge-one, judge-two], aggregate: majority }
    rubric:
      categories:
        - { id: goal, description: "States the goal.", required: true }
  - name: notes
    rubric: "Which note is better?"
    compare:
      items:
        - { id: n1, input: "Write the note.", output_a: "Short note.", output_b: "Longer note." }
`;

export function reviewQueueScript() {
  let accurate = 0;
  return (request: JudgeRequest<VerdictKind>): FakeAnswer => {
    if (request.verdict === "pairwise")
      return { verdict: { reasoning: "The first reads better.", winner: "A", confidence: 0.9 } };
    if (categoryOf(request)) {
      const score = request.model === "judge-one" ? "pass" : "fail";
      return {
        verdict: {
          reasoning: `${request.model} says ${score}.`,
          score,
          evidence: ["ship on Friday"],
          findings: [],
        },
      };
    }
    // Two jurors pass "accurate", the third fails it; "concise" is unanimous.
    if (criterionOf(request) === "accurate")
      return {
        score: [0.9, 0.9, 0.2][accurate++ % 3]!,
        reasoning: "juror",
        evidence: "per-tenant rate limits",
      };
    return { score: 0.9, reasoning: "short" };
  };
}
