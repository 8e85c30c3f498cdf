import { describe, expect, it } from "vitest";
import { byCategory, createFakeJudge, type FakeStructured } from "../../support/fake-judge";
import { runOne, runYaml } from "../../support/run-yaml";
import { exitCodeOf } from "../../../lib/engine/run-suite";
import type { CategoryVerdict } from "../../../lib/engine/ports/verdict";

// A category review through the real engine with a scripted judge. The
// expected findings, decision, next steps and summary below were worked out by
// hand from the Go package's rules (spec/README.md), not read off the code.

const prdReview = (passCriteria: string) => `
rubrics:
  prd:
    name: PRD review
    version: "2.1"
    review_type: prd
${passCriteria}
    categories:
      - id: problem
        name: Problem statement
        description: "States who has the problem and why it matters."
        required: true
      - id: metrics
        name: Success metrics
        description: "Defines measurable success metrics with baselines."
      - id: scope
        name: Scope
        description: "Says what is in and out of scope."
        scale: { type: binary }
      - id: risks
        name: Risks
        description: "Covers the launch risks."
        scale:
          type: checklist
          required_items: [rollback plan, owner]
          optional_items: [load test]
evals:
  - name: checkout prd
    document: "# Checkout v2\\nUsers abandon carts when checkout takes too long. Target: p95 under 2s. Rollback: feature flag."
    rubric: { ref: prd }
`;

const verdict = (v: Partial<CategoryVerdict> & Pick<CategoryVerdict, "score">): FakeStructured => ({
  verdict: { reasoning: `judged ${v.score}`, evidence: [], findings: [], ...v },
});

const answers = (metricsFinding: "medium" | "high") => ({
  problem: verdict({
    score: "pass",
    evidence: ["Users abandon carts when checkout takes too long."],
    findings: [
      {
        severity: "low",
        title: "Persona not named",
        description: "Which users?",
        recommendation: "Name the affected persona.",
      },
    ],
  }),
  metrics: verdict({
    score: "partial",
    findings: [
      {
        severity: metricsFinding,
        title: "No latency baseline",
        description: "p95 target without today's p95.",
        recommendation: "Add the current p95.",
      },
    ],
  }),
  scope: verdict({ score: "pass" }),
  // The judge says pass, but lists a required item as missing: the checklist decides.
  risks: verdict({
    score: "pass",
    checklist: { present: ["Rollback plan"], missing: ["owner", "load test"] },
  }),
});

describe("a category review (hand-worked fixture)", () => {
  it("partial categories and non-blocking findings: conditional, passed, with the next steps the Go rules give", async () => {
    const judge = createFakeJudge(byCategory(answers("medium")));
    const result = await runOne(
      prdReview(
        "    pass_criteria: { min_categories_passing: all_required, max_findings: { critical: 0, high: 0, medium: 1 } }",
      ),
      { judge },
    );

    expect(judge.requests.map((r) => r.verdict).sort()).toEqual([
      "category",
      "category",
      "category",
      "category_binary",
    ]);
    const report = result.review!.report;
    expect(report.categories.map((c) => [c.category, c.score])).toEqual([
      ["problem", "pass"],
      ["metrics", "partial"],
      ["scope", "pass"],
      ["risks", "partial"],
    ]);
    expect(report.categories[3]!.checklistResults).toEqual({
      requiredPresent: ["rollback plan"],
      requiredMissing: ["owner"],
      optionalPresent: [],
      optionalMissing: ["load test"],
    });
    expect(report.findings.map((f) => [f.id, f.category, f.severity, f.title])).toEqual([
      ["problem-1", "problem", "low", "Persona not named"],
      ["metrics-1", "metrics", "medium", "No latency baseline"],
    ]);
    expect(report.decision).toEqual({
      status: "conditional",
      passed: true,
      rationale: "Passed with 2 partial scores",
      findingCounts: { critical: 0, high: 0, medium: 1, low: 1, info: 0, total: 2 },
      categoryCounts: { pass: 2, partial: 2, fail: 0, total: 4 },
    });
    expect(report.overallDecision).toBe("conditional");
    expect(report.nextSteps).toEqual({
      rerunCommand: "rubric-studio review --config 'suite.yaml' --filter '^checkout prd$'",
      recommended: [
        { action: "Add the current p95.", category: "metrics", severity: "medium" },
        { action: "Improve partial category: metrics", category: "metrics" },
        { action: "Improve partial category: risks", category: "risks" },
      ],
    });
    expect(report.summary).toBe(
      "Categories: 2 pass, 2 partial, 0 fail. 2 findings (1 medium, 1 low). Decision: conditional.",
    );
    expect(report).toMatchObject({
      reviewType: "prd",
      rubricId: "prd",
      rubricVersion: "2.1",
      passCriteria: { minCategoriesPassing: "all_required" },
    });

    expect(result.status).toBe("passed");
    expect(result.display).toBe("conditional");
    // pass 1, partial 0.5: (1 + 0.5 + 1 + 0.5) / 4
    expect(result.score).toBeCloseTo(0.75, 10);
    expect(result.criteria.map((c) => [c.name, c.passed])).toEqual([
      ["Problem statement", true],
      ["Success metrics", false],
      ["Scope", true],
      ["Risks", false],
    ]);
  });

  it("a high finding blocks it: fail, the finding's recommendation is an immediate action, exit 1", async () => {
    const judge = createFakeJudge(byCategory(answers("high")));
    const result = await runOne(prdReview(""), { judge });
    const report = result.review!.report;
    expect(report.decision).toMatchObject({
      status: "fail",
      passed: false,
      rationale: "Blocked: 1 high severity finding (max 0 allowed)",
    });
    expect(report.nextSteps.immediate).toEqual([
      { action: "Add the current p95.", category: "metrics", severity: "high" },
    ]);
    expect(report.nextSteps.recommended?.map((a) => a.action)).toEqual([
      "Improve partial category: metrics",
      "Improve partial category: risks",
    ]);
    expect(result.status).toBe("failed");
    expect(result.reason).toBe("fail: Blocked: 1 high severity finding (max 0 allowed)");
  });

  it("a holistic rubric asks once for every category", async () => {
    const a = answers("medium");
    const judge = createFakeJudge(() => ({
      verdict: {
        reasoning: "whole document",
        categories: Object.entries(a).map(([category, answer]) => ({
          category,
          ...(answer.verdict as CategoryVerdict),
        })),
      },
    }));
    const result = await runOne(prdReview("    evaluation_type: holistic"), { judge });
    expect(judge.requests).toHaveLength(1);
    expect(judge.requests[0]!.verdict).toBe("category_holistic");
    expect(result.review!.report.decision.status).toBe("conditional");
  });

  it("a holistic verdict that leaves a category out is a judge_error, never a pass or a fail", async () => {
    const judge = createFakeJudge(() => ({
      verdict: {
        reasoning: "short",
        categories: [
          { category: "problem", reasoning: "ok", score: "pass", evidence: [], findings: [] },
        ],
      },
    }));
    const result = await runOne(prdReview("    evaluation_type: holistic"), { judge });
    expect(result.status).toBe("judge_error");
    expect(result.reason).toContain('no entry for category "metrics"');
    expect(result.review).toBeUndefined();
  });

  it("a judge error on one category makes the review a judge_error and exit 1", async () => {
    const a = answers("medium");
    const judge = createFakeJudge(
      byCategory({
        ...a,
        scope: { error: "malformed", message: "no valid verdict after one repair attempt" },
      }),
    );
    const report = await runYaml(prdReview(""), { judge });
    expect(report.results[0]!.status).toBe("judge_error");
    expect(report.results[0]!.reason).toContain("scope");
    expect(exitCodeOf(report)).toBe(1);
  });
});
