import { describe, expect, it } from "vitest";
import { byCriterion, createFakeJudge } from "../../support/fake-judge";
import { criterion, runOne } from "../../support/run-yaml";
import { evidenceOccurs } from "../../../lib/engine/grade/check-evidence";

// require_evidence: each criterion's verdict must cite a verbatim span of the
// candidate, and the engine checks that the span is really there.

const RESPONSE = "The 2.3.0 release added\nper-tenant   rate limits.";

const suite = `
evals:
  - name: grounded answer with citations
    prompt: "What changed in the last release?"
    response: ${JSON.stringify(RESPONSE)}
    rubric:
      require_evidence: true
      criteria:
        - name: states the version
          description: "Names the release version."
        - name: states the change
          description: "Describes what the release changed."
`;

describe("require_evidence in a run", () => {
  it("asks every criterion for a verdict with evidence", async () => {
    const judge = createFakeJudge(
      byCriterion({
        "states the version": { score: 1, evidence: "2.3.0" },
        "states the change": { score: 1, evidence: "per-tenant rate limits" },
      }),
    );
    await runOne(suite, { judge });
    expect(judge.requests.map((r) => r.verdict)).toEqual([
      "score_with_evidence",
      "score_with_evidence",
    ]);
    expect(judge.requests[0]!.stablePrompt).toContain(
      "In `evidence`, copy one verbatim span from the candidate",
    );
  });

  it("passes with real spans, and surfaces them in the report", async () => {
    const judge = createFakeJudge(
      byCriterion({
        "states the version": { score: 1, evidence: "2.3.0" },
        "states the change": { score: 0.9, evidence: "added per-tenant rate limits" },
      }),
    );
    const result = await runOne(suite, { judge });
    expect(result.status).toBe("passed");
    expect(criterion(result, "states the version")).toMatchObject({
      evidence: "2.3.0",
      evidenceFound: true,
      score: 1,
      gates: [],
    });
    // The candidate breaks the line and doubles the spaces; the quote does not. Still verbatim.
    expect(criterion(result, "states the change")).toMatchObject({
      evidence: "added per-tenant rate limits",
      evidenceFound: true,
      score: 0.9,
    });
  });

  it("scores a criterion with no evidence 0 and fails the eval, whatever the judge's score", async () => {
    const judge = createFakeJudge(
      byCriterion({
        "states the version": { score: 1, evidence: "2.3.0" },
        "states the change": { score: 1 },
      }),
    );
    const result = await runOne(suite, { judge });
    expect(criterion(result, "states the change")).toMatchObject({
      score: 0,
      evidenceFound: false,
      gates: ["evidence_missing"],
      passed: false,
    });
    expect(result.score).toBeCloseTo(0.5, 10);
    expect(result.status).toBe("failed");
    expect(result.reason).toBe(
      'criterion "states the change" has no verbatim evidence from the candidate, so it scores 0',
    );
  });

  it("treats an empty span as missing", async () => {
    const judge = createFakeJudge(
      byCriterion({
        "states the version": { score: 1, evidence: "2.3.0" },
        "states the change": { score: 1, evidence: "  " },
      }),
    );
    const result = await runOne(suite, { judge });
    expect(criterion(result, "states the change")).toMatchObject({
      score: 0,
      gates: ["evidence_missing"],
    });
    expect(result.status).toBe("failed");
  });

  it("scores an invented span 0 and fails the eval, even when the average would clear the bar", async () => {
    const threeCriteria = suite.replace(
      "require_evidence: true",
      "require_evidence: true\n      threshold: 0.6",
    ).concat(`        - name: is brief
          description: "States the answer without filler."
`);
    const judge = createFakeJudge(
      byCriterion({
        "states the version": { score: 1, evidence: "2.3.0" },
        "states the change": { score: 1, evidence: "rewrote the billing engine" },
        "is brief": { score: 1, evidence: "The 2.3.0 release" },
      }),
    );
    const result = await runOne(threeCriteria, { judge });
    expect(result.score).toBeCloseTo(2 / 3, 10);
    expect(criterion(result, "states the change")).toMatchObject({
      evidence: "rewrote the billing engine",
      evidenceFound: false,
      score: 0,
    });
    expect(result.status).toBe("failed");
    expect(result.gates).toEqual([
      'criterion "states the change" has no verbatim evidence from the candidate, so it scores 0',
    ]);
  });

  it("does not ask for evidence when require_evidence is off", async () => {
    const judge = createFakeJudge(
      byCriterion({ "states the version": { score: 1 }, "states the change": { score: 1 } }),
    );
    const result = await runOne(
      suite.replace("require_evidence: true", "require_evidence: false"),
      { judge },
    );
    expect(judge.requests.map((r) => r.verdict)).toEqual(["score", "score"]);
    expect(result.status).toBe("passed");
    expect(criterion(result, "states the change").evidenceFound).toBeUndefined();
  });
});

describe("evidenceOccurs", () => {
  it.each([
    ["an exact span", "per-tenant   rate limits.", true],
    ["a span with different whitespace", "added per-tenant rate limits.", true],
    ["a span across the line break", "release added per-tenant", true],
    ["a quoted span", '"2.3.0 release"', true],
    ["a paraphrase", "added rate limits per tenant", false],
    ["a span with different case", "the 2.3.0 release", false],
    ["an ellipsis", "The 2.3.0 release ... rate limits.", false],
    ["an empty string", "", false],
    ["only quotation marks", '""', false],
  ])("%s", (_what, evidence, expected) => {
    expect(evidenceOccurs(evidence, RESPONSE)).toBe(expected);
  });

  it("is false when there is no evidence at all", () => {
    expect(evidenceOccurs(undefined, RESPONSE)).toBe(false);
  });
});
