import { describe, expect, it } from "vitest";
import { AGGREGATION_METHODS } from "../../../lib/engine/review/aggregation/registry";
import { categoryOf, createFakeJudge, type FakeAnswer } from "../../support/fake-judge";
import { runOne } from "../../support/run-yaml";
import type { ScoreValue } from "../../../lib/config/category-types";
import type { DecisionStatus } from "../../../lib/engine/results/review-types";
import type { CategoryVerdict } from "../../../lib/engine/ports/verdict";

// Several judges on one document: the registry of aggregation methods, walked,
// and a panel of three through the engine. Expected values are worked out by
// hand from the rules in spec/README.md.

describe("the aggregation registry", () => {
  // votes -> expected per method; decisions -> expected per method
  const votes: [ScoreValue[], Record<string, ScoreValue>][] = [
    [
      ["pass", "pass", "fail"],
      { majority: "pass", conservative: "fail", optimistic: "pass", unanimous: "partial" },
    ],
    [
      ["pass", "partial", "fail"],
      { majority: "partial", conservative: "fail", optimistic: "pass", unanimous: "partial" },
    ],
    [
      ["pass", "fail"],
      { majority: "partial", conservative: "fail", optimistic: "pass", unanimous: "partial" },
    ],
    [
      ["partial", "partial", "partial"],
      { majority: "partial", conservative: "partial", optimistic: "partial", unanimous: "partial" },
    ],
    [
      ["fail", "fail", "pass"],
      { majority: "fail", conservative: "fail", optimistic: "pass", unanimous: "partial" },
    ],
  ];
  const decisions: [DecisionStatus[], Record<string, DecisionStatus>][] = [
    [
      ["pass", "pass", "fail"],
      { majority: "pass", conservative: "fail", optimistic: "pass", unanimous: "human_review" },
    ],
    [
      ["pass", "conditional", "fail"],
      {
        majority: "human_review",
        conservative: "fail",
        optimistic: "pass",
        unanimous: "human_review",
      },
    ],
    [
      ["conditional", "conditional"],
      {
        majority: "conditional",
        conservative: "conditional",
        optimistic: "conditional",
        unanimous: "conditional",
      },
    ],
    [
      ["pass", "conditional"],
      {
        majority: "human_review",
        conservative: "conditional",
        optimistic: "pass",
        unanimous: "human_review",
      },
    ],
  ];

  it("has exactly the Go package's four methods, each named as its key and described", () => {
    expect(Object.keys(AGGREGATION_METHODS)).toEqual([
      "majority",
      "conservative",
      "optimistic",
      "unanimous",
    ]);
    for (const [key, method] of Object.entries(AGGREGATION_METHODS)) {
      expect(method.name).toBe(key);
      expect(method.description.length).toBeGreaterThan(20);
    }
  });

  for (const [name, method] of Object.entries(AGGREGATION_METHODS)) {
    it(`${name}: votes per category and the consolidated decision`, () => {
      for (const [input, expected] of votes)
        expect(method.voteCategory(input), `${name} ${input.join(",")}`).toBe(expected[name]);
      for (const [input, expected] of decisions)
        expect(method.decide(input), `${name} ${input.join(",")}`).toBe(expected[name]);
    });
  }
});

const suite = (aggregate: string) => `
evals:
  - name: panel review
    document: "Plan: ship on Friday."
    rubric:
      categories:
        - { id: a, description: "Goal" }
        - { id: b, description: "Metrics" }
        - { id: c, description: "Rollback" }
    judge:
      panel: [judge-one, judge-two, judge-three]
      aggregate: ${aggregate}
`;

const v = (score: ScoreValue, findings: CategoryVerdict["findings"] = []): FakeAnswer => ({
  verdict: { reasoning: `${score} reasoning`, score, evidence: [`quote ${score}`], findings },
});
const f = (severity: "high" | "medium", title: string) => ({
  severity,
  title,
  description: "d",
  recommendation: `fix ${title}`,
});

// judge-one: a pass (medium "Vague goal"), b pass, c fail (high "No rollback")
// judge-two: a pass (high "vague  goal": the same title), b partial, c fail (high "No rollback")
// judge-three: a pass, b fail, c pass
const TABLE: Record<string, Record<string, FakeAnswer>> = {
  "judge-one": {
    a: v("pass", [f("medium", "Vague goal")]),
    b: v("pass"),
    c: v("fail", [f("high", "No rollback")]),
  },
  "judge-two": {
    a: v("pass", [f("high", "vague  goal")]),
    b: v("partial"),
    c: v("fail", [f("high", "No rollback")]),
  },
  "judge-three": { a: v("pass"), b: v("fail"), c: v("pass") },
};
const panelJudge = () => createFakeJudge((request) => TABLE[request.model]![categoryOf(request)!]!);

describe("a panel of three judges", () => {
  it("majority: categories by vote, agreement by the Go formula, disagreements, consolidated findings and decision", async () => {
    const result = await runOne(suite("majority"), { judge: panelJudge() });
    const multi = result.review!.multiJudge!;
    expect(multi.aggregationMethod).toBe("majority");
    expect(multi.aggregatedCategories.map((c) => [c.category, c.score])).toEqual([
      ["a", "pass"],
      ["b", "partial"],
      ["c", "fail"],
    ]);
    // (3/3 + 1/3 + 2/3) / 3
    expect(multi.agreement).toBeCloseTo(2 / 3, 12);
    expect(multi.disagreements).toEqual([
      {
        category: "b",
        scores: [
          { judgeId: "judge-one", score: "pass" },
          { judgeId: "judge-two", score: "partial" },
          { judgeId: "judge-three", score: "fail" },
        ],
        uniqueScores: 3,
      },
      {
        category: "c",
        scores: [
          { judgeId: "judge-one", score: "fail" },
          { judgeId: "judge-two", score: "fail" },
          { judgeId: "judge-three", score: "pass" },
        ],
        uniqueScores: 2,
      },
    ]);
    // The duplicate "Vague goal" keeps the higher severity; ids are renumbered per category.
    expect(multi.consolidatedFindings.map((x) => [x.id, x.severity, x.title])).toEqual([
      ["a-1", "high", "vague  goal"],
      ["c-1", "high", "No rollback"],
    ]);
    // judge-one and judge-two fail on their high findings, judge-three passes: 2 of 3 > half.
    expect(multi.evaluations.map((e) => e.decision.status)).toEqual(["fail", "fail", "pass"]);
    expect(multi.consolidatedDecision).toMatchObject({ status: "fail", passed: false });
    expect(multi.judges.map((j) => j.model)).toEqual(["judge-one", "judge-two", "judge-three"]);
    expect(result.status).toBe("failed");
    expect(result.review!.report.decision.status).toBe("fail");
    expect(result.review!.report.findings).toHaveLength(2);
  });

  it("unanimous: a split decision goes to human_review, and the eval does not pass", async () => {
    const result = await runOne(suite("unanimous"), { judge: panelJudge() });
    expect(result.review!.multiJudge!.consolidatedDecision).toMatchObject({
      status: "human_review",
      passed: false,
    });
    expect(result.review!.multiJudge!.aggregatedCategories.map((c) => c.score)).toEqual([
      "pass",
      "partial",
      "partial",
    ]);
    expect(result.display).toBe("human_review");
    expect(result.status).toBe("failed");
  });

  it("optimistic takes the best decision; conservative the worst", async () => {
    const optimistic = await runOne(suite("optimistic"), { judge: panelJudge() });
    expect(optimistic.review!.multiJudge!.consolidatedDecision.status).toBe("pass");
    expect(optimistic.status).toBe("passed");
    const conservative = await runOne(suite("conservative"), { judge: panelJudge() });
    expect(conservative.review!.multiJudge!.consolidatedDecision.status).toBe("fail");
  });
});
