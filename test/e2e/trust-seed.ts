import type { FakeReply, FakeRequest } from "../support/fake-messages-api";

// A suite for the judge-trust views, graded through the real CLI against the
// stand-in (results-seed.ts's seedSuite): a panel of three models whose
// jurors disagree on a pass/fail criterion over three prompts, a judge-model ×
// prompt matrix, a category review with findings of every severity but low,
// the same review by a panel of two that splits on one category, and a
// pairwise comparison judged by a stand-in that always prefers the response
// shown first.

export const PANEL = ["claude-haiku-4-5", "claude-opus-4-1", "claude-sonnet-4-6"] as const;
/** Each panel model's pass (1) or fail (0) on items 1..3. */
export const PANEL_SCORES: Record<(typeof PANEL)[number], number[]> = {
  "claude-sonnet-4-6": [1, 1, 1],
  "claude-haiku-4-5": [1, 1, 0],
  "claude-opus-4-1": [0, 1, 0],
};
export const XSS_JUROR = `<script>alert("juror")</script><img src=x onerror=alert(4)> opus refuses to pass it`;
export const XSS_FINDING = `<img src=x onerror=alert(5)> No owner named`;

export const TRUST_SUITE = `rubrics:
  prd:
    name: PRD review
    review_type: prd
    categories:
      - { id: problem, name: Problem, description: "States the problem.", required: true }
      - { id: metrics, name: Metrics, description: "Defines success metrics." }
evals:
  - name: refusal panel
    response: "Panel answer."
    rubric:
      scale: boolean
      criteria:
        - { name: refuses, description: "Refuses the destructive request." }
    judge: { panel: [${PANEL.join(", ")}] }
    matrix: { prompts: ["item 1", "item 2", "item 3"] }
  - name: model matrix
    response: "Matrix answer."
    rubric: "Summarises the release."
    matrix:
      models: [claude-sonnet-4-6, claude-haiku-4-5]
      prompts: ["item 1", "item 2"]
  - name: checkout prd
    document: "# Checkout v2\\nCarts are abandoned when checkout is slow.\\n"
    rubric: { ref: prd }
  - name: checkout prd panel
    document: "# Checkout v3\\nPanel review document.\\n"
    rubric: { ref: prd }
    judge: { panel: [claude-sonnet-4-6, claude-opus-4-1], aggregate: majority }
  - name: notes v1 vs v2
    rubric: "Which release note is more accurate?"
    compare:
      labels: { a: v1, b: v2 }
      items:
        - { input: "Write the 2.3 note.", output_a: "2.3 adds rate limits.", output_b: "2.3 adds per-tenant rate limits (100 rps)." }
        - { input: "Write the 2.4 note.", output_a: "2.4 fixes bugs.", output_b: "2.4 fixes the invoice rounding bug (#812)." }
`;

export const SOLO_SUITE = `evals:
  - name: solo
    response: "One answer."
    rubric: "Answers the question."
`;

const finding = (severity: string, title: string) => ({
  severity,
  title,
  description: `${title}: described.`,
  recommendation: `Fix: ${title}.`,
});

export function trustReply(request: FakeRequest): FakeReply {
  const model = String(request.body.model);
  if (request.user.includes("<response_a>"))
    return {
      toolInput: { reasoning: "The first one reads better.", winner: "A", confidence: 0.9 },
    };
  const category = /\(id: (\w+)\) only/.exec(request.user)?.[1];
  if (category && request.user.includes("Panel review document.")) {
    // Opus calls the problem statement partial; everything else passes, without findings.
    const score = category === "problem" && model.includes("opus") ? "partial" : "pass";
    return {
      toolInput: {
        reasoning: `${model}: ${category} is ${score}.`,
        score,
        evidence: [],
        findings: [],
      },
    };
  }
  if (category === "problem")
    return {
      toolInput: {
        reasoning: "The problem is stated.",
        score: "pass",
        evidence: ["Carts are abandoned"],
        findings: [finding("info", "Nice framing")],
      },
    };
  if (category === "metrics") {
    const findings = [
      finding("critical", "No success metric"),
      finding("high", "No baseline"),
      finding("medium", "Vague target"),
      finding("medium", XSS_FINDING),
    ];
    return { toolInput: { reasoning: "No metric at all.", score: "fail", evidence: [], findings } };
  }
  if (request.user.includes("Panel answer.")) {
    const item = Number(/<user_prompt>\nitem (\d+)\n/.exec(request.user)?.[1]);
    const score = PANEL_SCORES[model as (typeof PANEL)[number]]![item - 1]!;
    const reasoning = model.includes("opus")
      ? `${XSS_JUROR} (item ${item})`
      : `${model} on item ${item}: ${score ? "refuses" : "complies"}`;
    return { verdict: { reasoning, score } };
  }
  // The matrix: haiku scores lower, so cells differ.
  return { verdict: { reasoning: "Summarised.", score: model.includes("haiku") ? 0.4 : 0.9 } };
}
