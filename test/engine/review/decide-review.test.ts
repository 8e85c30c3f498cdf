import { describe, expect, it } from "vitest";
import { decideReview } from "../../../lib/engine/review/decide-review";
import type {
  ReviewPassCriteria,
  RubricSetConfig,
  ScoreValue,
  Severity,
} from "../../../lib/config/category-types";
import type { CategoryResult, Finding } from "../../../lib/engine/results/review-types";

// Every rule of the Go package's Evaluate (spec/README.md), one at a time, and
// the order in which they apply.

const rubric = (required: string[]): RubricSetConfig => ({
  id: "r",
  name: "r",
  version: "1",
  reviewType: "r",
  evaluationType: "analytic",
  passCriteria: {
    minCategoriesPassing: "all_required",
    maxFindings: { critical: 0, high: 0, medium: -1 },
  },
  categories: ["a", "b", "c"].map((id) => ({
    id,
    name: id,
    description: id,
    weight: 1,
    required: required.includes(id),
    scale: { type: "categorical", options: [], requiredItems: [], optionalItems: [] },
    examples: {},
  })),
});

const results = (...scores: ScoreValue[]): CategoryResult[] =>
  scores.map((score, i) => ({ category: "abc"[i]!, score, reasoning: "" }));
const findings = (...severities: Severity[]): Finding[] =>
  severities.map((severity, i) => ({
    id: `a-${i}`,
    category: "a",
    severity,
    title: `t${i}`,
    description: "",
    recommendation: "fix",
  }));
const criteria = (
  min: ReviewPassCriteria["minCategoriesPassing"],
  limits: Partial<ReviewPassCriteria["maxFindings"]> = {},
): ReviewPassCriteria => ({
  minCategoriesPassing: min,
  maxFindings: { critical: 0, high: 0, medium: -1, ...limits },
});

const decide = (input: {
  scores: ScoreValue[];
  severities?: Severity[];
  criteria: ReviewPassCriteria;
  required?: string[];
}) =>
  decideReview({
    results: results(...input.scores),
    findings: findings(...(input.severities ?? [])),
    criteria: input.criteria,
    rubric: rubric(input.required ?? []),
  });

describe("decideReview: the Go Evaluate rules", () => {
  it("1. more critical findings than allowed fail, before anything else", () => {
    const d = decide({
      scores: ["pass", "pass", "pass"],
      severities: ["critical"],
      criteria: criteria("all"),
    });
    expect(d).toMatchObject({
      status: "fail",
      passed: false,
      rationale: "Blocked: 1 critical finding (max 0 allowed)",
    });
  });

  it("1. more high findings than allowed fail; a limit of -1 is unlimited", () => {
    expect(
      decide({
        scores: ["pass", "pass", "pass"],
        severities: ["high", "high"],
        criteria: criteria("all", { high: 1 }),
      }),
    ).toMatchObject({
      status: "fail",
      rationale: "Blocked: 2 high severity findings (max 1 allowed)",
    });
    expect(
      decide({
        scores: ["pass", "pass", "pass"],
        severities: ["critical", "high"],
        criteria: criteria("all", { critical: -1, high: -1 }),
      }).status,
    ).not.toBe("fail");
  });

  it("2. all: a partial category fails it", () => {
    expect(
      decide({ scores: ["pass", "partial", "pass"], criteria: criteria("all") }),
    ).toMatchObject({
      status: "fail",
      rationale: "Not all categories passed: 0 failed, 1 partial",
    });
  });

  it("2. all_required: only required categories must pass (partial is not a pass)", () => {
    expect(
      decide({
        scores: ["pass", "fail", "pass"],
        criteria: criteria("all_required"),
        required: ["a", "c"],
      }).status,
    ).not.toBe("fail");
    expect(
      decide({
        scores: ["partial", "pass", "pass"],
        criteria: criteria("all_required"),
        required: ["a"],
      }),
    ).toMatchObject({
      status: "fail",
      rationale: "Required category did not pass: a",
    });
  });

  it("2. a number N: at least N categories pass", () => {
    expect(decide({ scores: ["pass", "pass", "fail"], criteria: criteria(2) }).status).not.toBe(
      "fail",
    );
    expect(decide({ scores: ["pass", "partial", "fail"], criteria: criteria(2) })).toMatchObject({
      status: "fail",
      rationale: "Only 1 category passed (minimum 2 required)",
    });
  });

  it("3. more medium findings than allowed: conditional and NOT passed", () => {
    expect(
      decide({
        scores: ["pass", "pass", "pass"],
        severities: ["medium", "medium"],
        criteria: criteria("all", { medium: 1 }),
      }),
    ).toMatchObject({
      status: "conditional",
      passed: false,
      rationale: "2 medium findings exceeds the limit of 1",
    });
  });

  it("4. a partial category under a rule it does not break: conditional, passed", () => {
    expect(
      decide({ scores: ["pass", "partial", "pass"], criteria: criteria("all_required") }),
    ).toMatchObject({
      status: "conditional",
      passed: true,
      rationale: "Passed with 1 partial score",
    });
  });

  it("5. medium or low findings within limits: conditional, passed; info alone does not", () => {
    expect(
      decide({ scores: ["pass", "pass", "pass"], severities: ["low"], criteria: criteria("all") }),
    ).toMatchObject({
      status: "conditional",
      passed: true,
      rationale: "Passed with non-blocking findings",
    });
    expect(
      decide({ scores: ["pass", "pass", "pass"], severities: ["info"], criteria: criteria("all") })
        .status,
    ).toBe("pass");
  });

  it("6. otherwise pass, with the counts", () => {
    expect(decide({ scores: ["pass", "pass", "pass"], criteria: criteria("all") })).toEqual({
      status: "pass",
      passed: true,
      rationale: "Meets all criteria",
      findingCounts: { critical: 0, high: 0, medium: 0, low: 0, info: 0, total: 0 },
      categoryCounts: { pass: 3, partial: 0, fail: 0, total: 3 },
    });
  });

  it("applies the rules in order: findings before categories, medium before partial", () => {
    // A failing category and a critical finding: the finding rule speaks first.
    expect(
      decide({
        scores: ["fail", "pass", "pass"],
        severities: ["critical"],
        criteria: criteria("all"),
      }).rationale,
    ).toMatch(/^Blocked: 1 critical/);
    // Too many medium findings and a partial: the medium rule (not passed) wins over the partial rule (passed).
    expect(
      decide({
        scores: ["partial", "pass", "pass"],
        severities: ["medium"],
        criteria: criteria("all_required", { medium: 0 }),
      }).passed,
    ).toBe(false);
  });
});
