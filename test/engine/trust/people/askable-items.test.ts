import { describe, expect, it } from "vitest";
import { askableItems, reviewSubjectOf } from "../../../../lib/engine/trust/people/review-subject";
import { categoryOf, createFakeJudge } from "../../../support/fake-judge";
import { runYaml } from "../../../support/run-yaml";

// "Ask a person" offers what a person can answer about a result: a review's
// decision and its categories, named as the queue names them (the category's
// name, not its id), each with the judges' verdicts to show after the answer.

const SUITE = `
evals:
  - name: prd panel
    document: "Carts are abandoned when checkout is slow."
    judge: { panel: [judge-one, judge-two], aggregate: majority }
    rubric:
      categories:
        - { id: problem, name: Problem, description: "States the problem.", required: true }
`;

describe("askableItems", () => {
  it("offers a review's decision and its categories by name, each with a subject on its own scale", async () => {
    const report = await runYaml(SUITE, {
      judge: createFakeJudge((request) =>
        categoryOf(request)
          ? {
              verdict: {
                reasoning: `${request.model} passes.`,
                score: "pass",
                evidence: ["Carts are abandoned"],
                findings: [],
              },
            }
          : { score: 1 },
      ),
    });
    const result = report.results[0]!;
    expect(askableItems(result)).toEqual(["(decision)", "Problem"]);
    const problem = reviewSubjectOf(result, "Problem");
    expect(problem.scale.kind).toBe("category");
    expect(problem.verdicts.map((v) => v.said)).toEqual(["pass", "pass"]);
    expect(reviewSubjectOf(result, "(decision)").scale.points.map((p) => p.value)).toEqual([
      "fail",
      "conditional",
      "pass",
    ]);
  });
});

// A dashboard walk: a deferred result (its judge's key missing) offered only "(rubric)", and its
// criterion appeared nowhere on its page.
describe("a deferred result", () => {
  const DEFERRED = `
evals:
  - name: keyless judge
    response: "Four."
    rubric:
      criteria:
        - { name: right number, description: "Gives the right number." }
        - { name: polite, description: "Polite tone." }
`;

  it("stores the criteria it would have graded, and offers each one to a person", async () => {
    const report = await runYaml(DEFERRED, {
      judge: createFakeJudge(() => ({ score: 1 })),
      judgeUnavailable: "no judge key",
    });
    const result = report.results[0]!;
    expect(result.status).toBe("deferred");
    expect(result.criteria).toEqual([]);
    expect(result.rubric.criteria).toEqual([
      { name: "right number", description: "Gives the right number." },
      { name: "polite", description: "Polite tone." },
    ]);
    expect(askableItems(result)).toEqual(["right number", "polite"]);
    expect(reviewSubjectOf(result, "polite").asks).toBe("Polite tone.");
  });
});
