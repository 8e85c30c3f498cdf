import { describe, expect, it } from "vitest";
import { byCriterion, createFakeJudge, criterionOf } from "../../support/fake-judge";
import { runOne, runYaml } from "../../support/run-yaml";
import { PROMPT_TEMPLATE_VERSION, renderAnchors } from "../../../lib/engine/grade/build-prompt";

// What the judge is sent, laid out for the prompt cache: the instructions and
// the whole rubric (every criterion, every anchor) first, shared by every
// candidate; then the candidate, shared by every criterion; then a short turn
// naming the one criterion to grade now.

const RESPONSE = "The 2.3.0 release added per-tenant rate limits.";

// The guide's calibration-anchors example, plus a second criterion without anchors.
const anchored = `
evals:
  - name: groundedness with anchors
    prompt: "What changed in the last release?"
    response: "${RESPONSE}"
    judge:
      model: claude-haiku-4-5
      max_tokens: 2048
    rubric:
      criteria:
        - name: grounded
          description: "Every claim is supported by the release notes."
          examples:
            - response: "2.3.0 added per-tenant rate limits."
              score: 1.0
            - response: "2.3.0 rewrote the billing engine." # not in the notes
              score: 0.0
        - name: brief
          description: "States the answer without filler."
`;

const answers = byCriterion({ grounded: { score: 1 }, brief: { score: 1 } });

async function requestFor(name: string) {
  const judge = createFakeJudge(answers);
  await runOne(anchored, { judge });
  const request = judge.requests.find((r) => criterionOf(r) === name);
  if (!request) throw new Error(`no request for ${name}`);
  return request;
}

describe("calibration anchors", () => {
  it("renders each anchor on its own line under a Calibration examples heading", async () => {
    const { stablePrompt } = await requestFor("grounded");
    expect(stablePrompt).toContain(
      [
        "## Calibration examples",
        "Score consistently with these labelled examples.",
        'Response: "2.3.0 added per-tenant rate limits." -> score 1.00',
        'Response: "2.3.0 rewrote the billing engine." -> score 0.00',
      ].join("\n"),
    );
    // The anchors belong to the criterion they calibrate: after its description.
    expect(stablePrompt.indexOf("## Criterion: grounded")).toBeLessThan(
      stablePrompt.indexOf("## Calibration examples"),
    );
  });

  it("lists them under the criterion that carries them, in the prefix every criterion's call shares", async () => {
    const { stablePrompt, taskPrompt } = await requestFor("brief");
    const grounded = stablePrompt.indexOf("## Criterion: grounded");
    const brief = stablePrompt.indexOf("## Criterion: brief");
    const anchors = stablePrompt.indexOf("## Calibration examples");
    expect(grounded).toBeLessThan(anchors);
    expect(anchors).toBeLessThan(brief);
    expect(stablePrompt.slice(brief)).not.toContain("Calibration examples");
    expect(taskPrompt).toBe(
      'Grade the candidate on the criterion "brief" only, now, by calling record_verdict.',
    );
  });

  it("renders two decimals and escapes quotes inside a response", () => {
    expect(renderAnchors([{ response: 'Said "hi".', score: 0.5 }])).toContain(
      'Response: "Said \\"hi\\"." -> score 0.50',
    );
    expect(renderAnchors([])).toBe("");
  });
});

describe("stable prompt and candidate prompt", () => {
  it("keeps the candidate out of the stable part, and the criterion to grade out of both", async () => {
    const request = await requestFor("grounded");
    expect(request.stablePrompt).not.toContain(RESPONSE);
    expect(request.candidatePrompt).toBe(
      [
        "<user_prompt>\nWhat changed in the last release?\n</user_prompt>",
        `<candidate_response>\n${RESPONSE}\n</candidate_response>`,
      ].join("\n\n"),
    );
    expect(request.taskPrompt).toContain('"grounded"');
    expect(request.candidatePrompt).not.toContain("grounded");
  });

  it("carries the eval's judge settings and the template version", async () => {
    const request = await requestFor("grounded");
    expect(request).toMatchObject({
      model: "claude-haiku-4-5",
      maxTokens: 2048,
      templateVersion: PROMPT_TEMPLATE_VERSION,
      verdict: "score",
    });
  });

  it("is byte-identical in its stable part for every candidate graded against one rubric", async () => {
    const yaml = `
rubrics:
  helpful-and-grounded:
    criteria:
      - name: helpful
        description: "Directly answers the question."
evals:
  - name: weather answer is good
    prompt: "What is the weather in Paris?"
    response: "It is 18C and clear in Paris."
    rubric: { ref: helpful-and-grounded }
  - name: billing answer is good
    prompt: "What did invoice 42 total?"
    response: "Invoice 42 totaled $120.00."
    rubric: { ref: helpful-and-grounded, threshold: 0.9 }
`;
    const judge = createFakeJudge(byCriterion({ helpful: { score: 1 } }));
    await runYaml(yaml, { judge });
    const [first, second] = judge.requests;
    expect(first!.stablePrompt).toBe(second!.stablePrompt);
    expect(first!.candidatePrompt).not.toBe(second!.candidatePrompt);
  });

  it("tells the judge that a guard describes what must not happen", async () => {
    const yaml = `
evals:
  - name: safe
    response: "Invoice 42 totaled $120.00."
    rubric:
      criteria:
        - name: leaks a card number
          description: "The answer exposes a full card number."
          guard: true
`;
    const judge = createFakeJudge(byCriterion({ "leaks a card number": { score: 0 } }));
    await runOne(yaml, { judge });
    const { stablePrompt, candidatePrompt, taskPrompt } = judge.requests[0]!;
    expect(stablePrompt).toContain(
      "A criterion marked (guard) describes something that must NOT happen.",
    );
    expect(stablePrompt).toContain(
      "## Criterion: leaks a card number (guard)\nThe answer exposes a full card number.",
    );
    expect(taskPrompt).toContain("This criterion describes something that must NOT happen");
    // No prompt in the eval: the candidate is only the response.
    expect(candidatePrompt.startsWith("<candidate_response>")).toBe(true);
  });
});
