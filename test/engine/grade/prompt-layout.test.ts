import { describe, expect, it } from "vitest";
import { createFakeJudge, type FakeScript } from "../../support/fake-judge";
import { runOne, runYaml } from "../../support/run-yaml";
import { PROMPT_TEMPLATE_VERSION } from "../../../lib/engine/grade/build-prompt";
import { REVIEW_TEMPLATE_VERSION } from "../../../lib/engine/review/review-prompt";
import { PAIRWISE_TEMPLATE_VERSION } from "../../../lib/engine/pairwise/pairwise-prompt";
import type { JudgeRequest, VerdictKind } from "../../../lib/engine/ports/judge-port";

// The cache-aware layout (DESIGN.md, the judge protocol): calls that should
// share a prefix send it byte for byte alike, and each call still grades the
// one criterion (node, category) its last turn names.

const CRITERIA = `
rubrics:
  answer-quality:
    criteria:
      - name: correct
        description: "The answer is factually right."
        examples:
          - { response: "Paris is the capital of France.", score: 1.0 }
          - { response: "Lyon is the capital of France.", score: 0.0 }
      - name: brief
        description: "No filler."
      - name: polite
        description: "Courteous tone."
evals:
  - name: capital
    prompt: "What is the capital of France?"
    response: "Paris."
    rubric: { ref: answer-quality }
  - name: river
    prompt: "Which river runs through Paris?"
    response: "The Seine."
    rubric: { ref: answer-quality }
`;

// Answers by reading only the last turn, so a verdict lands where the turn said.
const SCORES: Record<string, number> = { correct: 0.9, brief: 0.6, polite: 0.3 };
const byTask: FakeScript = (request) => {
  const name = /the criterion "(.*)" only/.exec(request.taskPrompt)?.[1] ?? "?";
  return { score: SCORES[name] ?? 0, reasoning: `graded ${name}` };
};

const candidateOf = (r: JudgeRequest<VerdictKind>) =>
  /<candidate_response>\n([\s\S]*?)\n<\/candidate_response>/.exec(r.candidatePrompt)?.[1];

describe("the prompt layout of a criteria rubric", () => {
  it("shares the system prompt across candidates and criteria, and the candidate block across criteria of one candidate", async () => {
    const judge = createFakeJudge(byTask);
    await runYaml(CRITERIA, { judge });
    expect(judge.requests).toHaveLength(6);
    expect(new Set(judge.requests.map((r) => r.stablePrompt)).size).toBe(1);
    // Every criterion and every anchor is in the shared prefix.
    const system = judge.requests[0]!.stablePrompt;
    for (const text of [
      "## Criterion: correct",
      "## Criterion: brief",
      "## Criterion: polite",
      "Lyon is the capital of France.",
    ])
      expect(system).toContain(text);
    for (const answer of ["Paris.", "The Seine."]) {
      const mine = judge.requests.filter((r) => candidateOf(r) === answer);
      expect(mine).toHaveLength(3);
      expect(new Set(mine.map((r) => r.candidatePrompt)).size).toBe(1);
      expect(new Set(mine.map((r) => r.taskPrompt)).size).toBe(3);
    }
    expect(judge.requests.every((r) => r.templateVersion === PROMPT_TEMPLATE_VERSION)).toBe(true);
    expect(PROMPT_TEMPLATE_VERSION).not.toBe("rubric-v1");
  });

  it("records each verdict against the criterion the call asked about", async () => {
    const judge = createFakeJudge(byTask);
    const result = await runOne(CRITERIA.split("  - name: river")[0]!, { judge });
    expect(result.criteria.map((c) => [c.name, c.score, c.reasoning])).toEqual([
      ["correct", 0.9, "graded correct"],
      ["brief", 0.6, "graded brief"],
      ["polite", 0.3, "graded polite"],
    ]);
  });
});

describe("the prompt layout of other rubric forms", () => {
  it("tree nodes share the system prompt (every question) and the candidate; the last turn asks one question", async () => {
    const yaml = `
evals:
  - name: weather
    response: "It is 18C and clear."
    rubric:
      threshold: 0.5
      tree:
        ask: "Does it give a temperature?"
        yes:
          ask: "Does it name the sky?"
          yes: { score: 1 }
          no: { score: 0.5 }
        no: { score: 0 }
`;
    const judge = createFakeJudge(() => ({ score: 1 }));
    await runOne(yaml, { judge });
    expect(judge.requests).toHaveLength(2);
    const [first, second] = judge.requests;
    expect(first!.stablePrompt).toBe(second!.stablePrompt);
    expect(first!.candidatePrompt).toBe(second!.candidatePrompt);
    expect(first!.stablePrompt).toContain("- Does it name the sky?");
    expect(first!.taskPrompt).toContain("\nDoes it give a temperature?");
    expect(second!.taskPrompt).toContain("\nDoes it name the sky?");
  });

  it("categories of a review share the system prompt and the document; each call names one category", async () => {
    const yaml = `
rubrics:
  prd:
    name: PRD review
    review_type: prd
    categories:
      - { id: problem, name: Problem, description: States the problem. }
      - { id: metrics, name: Metrics, description: Defines success metrics. }
evals:
  - name: checkout
    document: "Carts are abandoned when checkout is slow."
    rubric: { ref: prd }
  - name: search
    document: "Search returns stale results."
    rubric: { ref: prd }
`;
    const judge = createFakeJudge(() => ({
      verdict: { reasoning: "r", score: "pass", evidence: [], findings: [] },
    }));
    await runYaml(yaml, { judge });
    expect(judge.requests).toHaveLength(4);
    expect(new Set(judge.requests.map((r) => r.stablePrompt)).size).toBe(1);
    expect(judge.requests[0]!.stablePrompt).toContain("(id: metrics)");
    expect(new Set(judge.requests.map((r) => r.candidatePrompt)).size).toBe(2);
    expect(judge.requests.map((r) => /\(id: (\w+)\) only/.exec(r.taskPrompt)?.[1]).sort()).toEqual([
      "metrics",
      "metrics",
      "problem",
      "problem",
    ]);
    expect(judge.requests[0]!.templateVersion).toBe(REVIEW_TEMPLATE_VERSION);
    expect(REVIEW_TEMPLATE_VERSION).not.toBe("review-v1");
    expect(PAIRWISE_TEMPLATE_VERSION).not.toBe("pairwise-v1");
  });
});

describe("which candidates are worth caching", () => {
  it("marks a candidate no other call sends (a free-form rubric, one judge) and leaves a jury's or a criteria rubric's shared", async () => {
    const eval_ = (name: string, judge: string, rubric: string) => `
  - name: ${name}
    response: "Paris."
    judge: ${judge}
    rubric: ${rubric}`;
    const yaml = `evals:${[
      eval_("alone", "{ model: claude-sonnet-4-5 }", '"Answers the question."'),
      eval_(
        "jury",
        "{ model: claude-sonnet-4-5, jury: { size: 3 } }",
        '"Answers the question well."',
      ),
      eval_(
        "criteria",
        "{ model: claude-sonnet-4-5 }",
        '{ criteria: [{ name: correct, description: "Is right." }, { name: brief, description: "No filler." }] }',
      ),
    ].join("")}\n`;
    const judge = createFakeJudge(() => ({ score: 1 }));
    await runYaml(yaml, { judge });
    const shared = (text: string) =>
      judge.requests
        .filter((r) => r.stablePrompt.includes(text) || r.taskPrompt.includes(text))
        .map((r) => r.candidateShared !== false);
    expect(shared("Answers the question.")).toEqual([false]);
    expect(shared("Answers the question well.")).toEqual([true, true, true]);
    expect(shared('"correct"')).toEqual([true]);
  });
});
