import { describe, expect, it } from "vitest";
import { loadSuite } from "../../lib/config/load-suite";
import type { ConfigIssue } from "../../lib/config/types";

// The category rubric form of the YAML language: what RubricSet.Validate
// checks, and the traps beyond it, each reported where it was typed.

function load(text: string) {
  return loadSuite({ text, file: "suite.yaml" });
}
function issuesOf(text: string): ConfigIssue[] {
  const result = load(text);
  if (result.ok) throw new Error("expected the suite to be invalid");
  return result.issues;
}

const review = (rubric: string, extra = "") => `evals:
  - name: r
    document: "The document."
${extra}    rubric:
${rubric}`;

describe("category rubrics", () => {
  it("loads with Go's defaults: all_required, no critical or high finding, unlimited medium, analytic, pass/partial/fail", () => {
    const result = load(
      review(
        `      categories:\n        - { id: goal, description: "States the goal.", required: true }\n`,
      ),
    );
    if (!result.ok) throw new Error(result.issues.map((i) => i.message).join("\n"));
    const rubric = result.value.evals[0]!.rubric;
    if (rubric.kind !== "categories") throw new Error("not categories");
    expect(rubric.rubricSet).toMatchObject({
      id: "r",
      evaluationType: "analytic",
      passCriteria: {
        minCategoriesPassing: "all_required",
        maxFindings: { critical: 0, high: 0, medium: -1 },
      },
      categories: [
        { id: "goal", name: "goal", weight: 1, required: true, scale: { type: "categorical" } },
      ],
    });
    expect(rubric.rubricSet.categories[0]!.scale.options.map((o) => o.value)).toEqual([
      "pass",
      "partial",
      "fail",
    ]);
    expect(result.value.evals[0]!.response).toBe("The document.");
    expect(result.warnings).toEqual([]);
  });

  it("rejects a duplicate category id", () => {
    const issues = issuesOf(
      review(
        `      categories:\n        - { id: a, description: "x" }\n        - { id: a, description: "y" }\n`,
      ),
    );
    expect(issues.map((i) => [i.line, i.message])).toEqual([
      [7, 'duplicate category id "a": findings and results are keyed by it'],
    ]);
  });

  it("takes a category as the Go package writes it: an empty description, a categorical scale with no options (pass / partial / fail)", () => {
    const result = load(
      review(
        `      categories:\n        - { id: a, description: "", required: true, scale: { type: categorical } }\n        - { id: b, required: true, scale: { type: categorical, options: [] } }\n`,
      ),
    );
    if (!result.ok) throw new Error(result.issues.map((i) => i.message).join("\n"));
    const rubric = result.value.evals[0]!.rubric;
    if (rubric.kind !== "categories") throw new Error("not categories");
    expect(rubric.rubricSet.categories.map((c) => [c.id, c.description])).toEqual([
      ["a", ""],
      ["b", ""],
    ]);
    for (const category of rubric.rubricSet.categories)
      expect(category.scale.options.map((o) => o.value)).toEqual(["pass", "partial", "fail"]);
    expect(result.warnings).toEqual([]);
  });

  it("pass_criteria: strict is the Go package's StrictPassCriteria: every category passes, no critical or high finding, at most 3 medium", () => {
    const result = load(
      review(
        `      pass_criteria: strict\n      categories:\n        - { id: a, description: x }\n`,
      ),
    );
    if (!result.ok) throw new Error(result.issues.map((i) => i.message).join("\n"));
    const rubric = result.value.evals[0]!.rubric;
    if (rubric.kind !== "categories") throw new Error("not categories");
    expect(rubric.rubricSet.passCriteria).toEqual({
      minCategoriesPassing: "all",
      maxFindings: { critical: 0, high: 0, medium: 3, low: -1 },
    });
    // "all" needs no required category: no warning about all_required.
    expect(result.warnings).toEqual([]);
    const typo = issuesOf(
      review(
        `      pass_criteria: strikt\n      categories:\n        - { id: a, description: x }\n`,
      ),
    );
    expect(typo.map((i) => [i.line, i.message])).toEqual([[5, expect.stringContaining("strict")]]);
  });

  it("catches reviews that could never pass and settings that would be ignored", () => {
    const issues = issuesOf(
      review(
        [
          "      pass_criteria: { min_categories_passing: 3 }",
          "      threshold: 0.8",
          "      categories:",
          "        - { id: a, description: x, scale: { type: binary, options: [{ value: pass }, { value: partial }] } }",
          "        - id: b",
          "          description: y",
          "          scale: { type: checklist, required_items: [owner], passing_threshold: { required: 2 } }",
          "",
        ].join("\n"),
      ),
    ).map((i) => i.message);
    expect(issues).toEqual([
      "min_categories_passing is 3 but the rubric has only 2 categories: no review could pass",
      "a category rubric decides by pass_criteria and findings; it takes no threshold (that belongs to a criteria, tree or preset rubric)",
      "a binary scale is pass or fail: it has no partial option",
      "passing_threshold.required is 2 but the checklist has only 1 required items: it could never pass",
    ]);
  });

  it("warns when all_required has nothing to require, and when a low-finding limit would be ignored", () => {
    const result = load(
      review(
        `      pass_criteria: { max_findings: { low: 0 } }\n      categories:\n        - { id: a, description: x }\n`,
      ),
    );
    if (!result.ok) throw new Error(result.issues.map((i) => i.message).join("\n"));
    expect(result.warnings.map((w) => w.message)).toEqual([
      "no category is required, so min_categories_passing: all_required (the default) passes whatever the categories score; mark categories required: true or use all",
      "the decision rules never limit low findings (any low finding makes a review conditional); this limit is kept only for the report",
    ]);
  });

  it("keeps category fields off other rubrics and score aggregates off category rubrics", () => {
    const mixed = issuesOf(
      review(
        `      pass_criteria: { min_categories_passing: all }\n      criteria:\n        - { name: c, description: d }\n`,
      ),
    );
    expect(mixed.map((i) => i.message)).toEqual([
      "pass_criteria belongs to a category rubric; add categories: or remove it",
    ]);
    const mean = issuesOf(
      review(
        `      categories:\n        - { id: a, description: x, required: true }\n`,
        `    judge: { panel: [m1, m2], aggregate: mean }\n`,
      ),
    );
    expect(mean.map((i) => i.message)).toEqual([
      "a category rubric combines pass / partial / fail votes: aggregate is majority, conservative, optimistic, unanimous, not mean",
    ]);
    const conservative = issuesOf(
      `evals:\n  - name: e\n    response: r\n    rubric: "Good."\n    judge: { panel: [m1, m2], aggregate: conservative }\n`,
    );
    expect(conservative.map((i) => i.message)).toEqual([
      "aggregate: conservative combines category votes; it needs a category rubric (for scores use mean, median or majority)",
    ]);
  });

  it("a jury of one model may aggregate a category rubric's votes", () => {
    const result = load(
      review(
        `      categories:\n        - { id: a, description: x, required: true }\n`,
        `    judge: { jury: { size: 3 }, aggregate: unanimous }\n`,
      ),
    );
    expect(result.ok).toBe(true);
  });

  it("a document is a string, or exactly one of file and text; never alongside response", () => {
    const both = issuesOf(
      `evals:\n  - name: e\n    response: r\n    document: { file: a.md, text: inline }\n    rubric: "Good."\n`,
    ).map((i) => i.message);
    expect(both).toEqual([
      "give an eval either response or document, not both: the document is the candidate",
      "a document needs exactly one of file or text",
    ]);
    const file = load(
      `evals:\n  - name: e\n    document: { file: docs/prd.md, title: Checkout }\n    rubric: "Good."\n`,
    );
    if (!file.ok) throw new Error("should load");
    expect(file.value.evals[0]).toMatchObject({
      document: { file: "docs/prd.md", title: "Checkout" },
    });
    expect(file.value.evals[0]!.response).toBeUndefined();
    expect(file.warnings).toEqual([]);
  });
});

describe("pairwise evals (compare:)", () => {
  it("resolves a single pair with the free-form rubric as the question, labels defaulting to A and B", () => {
    const result = load(
      `evals:\n  - name: p\n    compare: { input: "Q?", output_a: "one", output_b: "two" }\n    rubric: "Which answers better?"\n`,
    );
    if (!result.ok) throw new Error(result.issues.map((i) => i.message).join("\n"));
    const rubric = result.value.evals[0]!.rubric;
    expect(rubric).toMatchObject({
      kind: "pairwise",
      comparison: {
        question: "Which answers better?",
        labels: { a: "A", b: "B" },
        items: [{ id: "1", input: "Q?", outputA: "one", outputB: "two" }],
      },
    });
    expect(result.warnings).toEqual([]);
  });

  it("rejects a comparison that is half given, mixed with a response, or graded by a tree or a guard", () => {
    const issues = issuesOf(
      [
        "evals:",
        "  - name: p",
        "    response: r",
        "    compare: { output_a: one }",
        "    rubric:",
        "      criteria:",
        "        - { name: safe, description: d, guard: true }",
        "",
      ].join("\n"),
    ).map((i) => i.message);
    expect(issues).toEqual([
      "a pairwise eval compares the outputs under compare:; it takes no response",
      "a comparison needs both output_a and output_b",
      "guard does not apply to a comparison: name the better output on each criterion instead",
    ]);
  });
});
