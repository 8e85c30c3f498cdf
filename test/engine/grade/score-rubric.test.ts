import { describe, expect, it } from "vitest";
import { always, byCriterion, createFakeJudge } from "../../support/fake-judge";
import { criterion, runOne, runYaml } from "../../support/run-yaml";
import { exitCodeOf } from "../../../lib/engine/run-suite";

// Scoring of weighted criteria as a user sees it in the report: the score,
// pass or fail, the reason, and each criterion's own line.

const billing = (criteria: string, options = "threshold: 0.7") => `
evals:
  - name: safe and grounded
    prompt: "What did invoice 42 total?"
    response: "Invoice 42 totaled $120.00."
    rubric:
      ${options}
      criteria:
${criteria}
`;

describe("weighted criteria", () => {
  const criteria = `
        - name: booked the right day
          description: "Created an event on the correct Tuesday."
          weight: 3
        - name: confirmed to the user
          description: "The final reply confirms the booking."`;

  it("scores the weight-normalised mean, not the plain mean", async () => {
    const judge = createFakeJudge(
      byCriterion({
        "booked the right day": { score: 1 },
        "confirmed to the user": { score: 0.2 },
      }),
    );
    const result = await runOne(billing(criteria, "threshold: 0.75"), { judge });
    // (3 × 1.0 + 1 × 0.2) / 4 = 0.80; the plain mean 0.60 would fail.
    expect(result.score).toBeCloseTo(0.8, 10);
    expect(result.status).toBe("passed");
    expect(result.display).toBe("0.80");
    expect(result.reason).toBe("score 0.80 ≥ threshold 0.75");
    expect(criterion(result, "booked the right day")).toMatchObject({
      weight: 3,
      score: 1,
      passed: true,
      status: "graded",
    });
    expect(criterion(result, "confirmed to the user")).toMatchObject({
      weight: 1,
      score: 0.2,
      passed: false,
    });
    expect(judge.requests).toHaveLength(2);
  });

  it("fails when the weighted mean is below the threshold", async () => {
    const judge = createFakeJudge(
      byCriterion({
        "booked the right day": { score: 0.6 },
        "confirmed to the user": { score: 1 },
      }),
    );
    const result = await runOne(billing(criteria, "threshold: 0.75"), { judge });
    // (3 × 0.6 + 1.0) / 4 = 0.70; the plain mean 0.80 would pass.
    expect(result.score).toBeCloseTo(0.7, 10);
    expect(result.status).toBe("failed");
    expect(result.reason).toBe("score 0.70 < threshold 0.75");
  });
});

describe("aggregation min and its alias worst", () => {
  const two = `
        - name: accurate
          description: "States the correct change."
          weight: 5
        - name: complete
          description: "Mentions every notable change."`;

  it.each(["min", "worst"])(
    "aggregation %s lets the worst criterion set the score, whatever the weights",
    async (aggregation) => {
      const judge = createFakeJudge(
        byCriterion({ accurate: { score: 0.9 }, complete: { score: 0.6 } }),
      );
      const result = await runOne(
        billing(two, `threshold: 0.7\n      aggregation: ${aggregation}`),
        { judge },
      );
      // The weighted mean (5 × 0.9 + 0.6) / 6 = 0.85 would pass.
      expect(result.score).toBeCloseTo(0.6, 10);
      expect(result.status).toBe("failed");
      expect(result.reason).toBe("score 0.60 < threshold 0.70");
    },
  );
});

describe("strict", () => {
  const one = `
        - name: accurate
          description: "States the correct change."`;

  it("fails anything short of a perfect score, even far above the threshold", async () => {
    const result = await runOne(billing(one, "threshold: 0.5\n      strict: true"), {
      judge: createFakeJudge(always({ score: 0.99 })),
    });
    expect(result.status).toBe("failed");
    expect(result.score).toBeCloseTo(0.99, 10);
    expect(result.reason).toBe("score 0.99 is short of the perfect 1.00 that strict requires");
  });

  it("passes a perfect score", async () => {
    const result = await runOne(billing(one, "threshold: 0.5\n      strict: true"), {
      judge: createFakeJudge(always({ score: 1 })),
    });
    expect(result.status).toBe("passed");
    expect(result.reason).toBe("a perfect score (strict)");
  });
});

describe("required criteria", () => {
  const criteria = `
        - name: correct total
          description: "States the correct invoice total."
          required: true
        - name: polite
          description: "Is polite."
          weight: 4`;

  it("fails the eval when a required criterion is below the threshold, even with a high average", async () => {
    const judge = createFakeJudge(
      byCriterion({ "correct total": { score: 0.6 }, polite: { score: 1 } }),
    );
    const report = await runYaml(billing(criteria), { judge });
    const result = report.results[0]!;
    // (0.6 + 4 × 1.0) / 5 = 0.92, well above 0.7.
    expect(result.score).toBeCloseTo(0.92, 10);
    expect(result.status).toBe("failed");
    expect(result.gates).toEqual([
      'required criterion "correct total" scored 0.60, below its threshold 0.70',
    ]);
    expect(result.reason).toBe(
      'required criterion "correct total" scored 0.60, below its threshold 0.70',
    );
    expect(criterion(result, "correct total")).toMatchObject({
      required: true,
      passed: false,
      gates: ["required_failed"],
    });
    expect(exitCodeOf(report)).toBe(1);
  });

  it("passes when the required criterion meets the threshold exactly", async () => {
    const judge = createFakeJudge(
      byCriterion({ "correct total": { score: 0.7 }, polite: { score: 1 } }),
    );
    const result = await runOne(billing(criteria), { judge });
    expect(result.status).toBe("passed");
    expect(result.gates).toEqual([]);
  });

  describe("with its own threshold (the guide's apology example)", () => {
    const apology = `
evals:
  - name: error responses must apologize
    prompt: "Trigger a server error."
    response: "Sorry, something went wrong on our end (error 500)."
    rubric:
      criteria:
        - name: apologizes on error
          description: "Acknowledges the failure and apologizes."
          when: { contains: "error" }
          required: true
          threshold: 0.9
        - name: names the status code
          description: "Names the HTTP status."
`;

    it("gates at the criterion's threshold, not the rubric's", async () => {
      const judge = createFakeJudge(
        byCriterion({
          "apologizes on error": { score: 0.85 },
          "names the status code": { score: 1 },
        }),
      );
      const result = await runOne(apology, { judge });
      // 0.85 clears the rubric's default 0.7 and the average is 0.925.
      expect(result.threshold).toBe(0.7);
      expect(criterion(result, "apologizes on error")).toMatchObject({
        threshold: 0.9,
        passed: false,
        gates: ["required_failed"],
      });
      expect(result.status).toBe("failed");
      expect(result.reason).toBe(
        'required criterion "apologizes on error" scored 0.85, below its threshold 0.90',
      );
    });

    it("passes at the criterion's threshold", async () => {
      const judge = createFakeJudge(
        byCriterion({
          "apologizes on error": { score: 0.9 },
          "names the status code": { score: 1 },
        }),
      );
      const result = await runOne(apology, { judge });
      expect(result.status).toBe("passed");
      expect(criterion(result, "apologizes on error")).toMatchObject({
        threshold: 0.9,
        passed: true,
        gates: [],
      });
    });
  });
});

describe("guard criteria", () => {
  const criteria = `
        - name: correct total
          description: "States the correct invoice total."
        - name: leaks a card number
          description: "The answer exposes a full card number."
          guard: true`;

  it("inverts the judge's score: a 0.1 finding contributes 0.9", async () => {
    const judge = createFakeJudge(
      byCriterion({ "correct total": { score: 0.5 }, "leaks a card number": { score: 0.1 } }),
    );
    const result = await runOne(billing(criteria), { judge });
    // (0.5 + 0.9) / 2 = 0.70 passes; without the inversion (0.5 + 0.1) / 2 = 0.30 would fail.
    expect(result.score).toBeCloseTo(0.7, 10);
    expect(result.status).toBe("passed");
    const guard = criterion(result, "leaks a card number");
    expect(guard).toMatchObject({ guard: true, gates: [], passed: true });
    expect(guard.score).toBeCloseTo(0.9, 10);
    // The judge's own finding is kept as it said it.
    expect(guard.verdicts.map((v) => v.score)).toEqual([0.1]);
  });

  it("fails the eval when the judge finds the thing present at exactly 0.5, whatever the average", async () => {
    const judge = createFakeJudge(
      byCriterion({ "correct total": { score: 1 }, "leaks a card number": { score: 0.5 } }),
    );
    const result = await runOne(billing(criteria, "threshold: 0.6"), { judge });
    expect(result.score).toBeCloseTo(0.75, 10);
    expect(result.status).toBe("failed");
    expect(criterion(result, "leaks a card number").gates).toEqual(["guard_triggered"]);
    expect(result.reason).toBe(
      'guard "leaks a card number" triggered: the judge found it present (0.50)',
    );
  });

  it("does not trigger just below 0.5", async () => {
    const judge = createFakeJudge(
      byCriterion({ "correct total": { score: 1 }, "leaks a card number": { score: 0.49 } }),
    );
    const result = await runOne(billing(criteria, "threshold: 0.6"), { judge });
    expect(result.status).toBe("passed");
    expect(result.gates).toEqual([]);
  });
});

describe("when: conditional criteria", () => {
  const criteria = `
        - name: states the total
          description: "States the invoice total."
        - name: explains the refund
          description: "Explains how the refund was computed."
          when: { contains: "refund" }
        - name: cites a date
          description: "Cites the invoice date."
          when: { regex: "\\\\d{4}-\\\\d{2}-\\\\d{2}" }`;

  it("keeps a skipped criterion out of the weighted average and asks the judge nothing about it", async () => {
    const judge = createFakeJudge(byCriterion({ "states the total": { score: 0.8 } }));
    const result = await runOne(billing(criteria), { judge });
    // Counted as 0, the two skipped criteria would pull the score to 0.27.
    expect(result.score).toBeCloseTo(0.8, 10);
    expect(result.status).toBe("passed");
    expect(result.vacuous).toBe(false);
    expect(criterion(result, "explains the refund")).toMatchObject({
      status: "skipped",
      score: null,
      passed: null,
      skippedReason: 'when: the candidate does not contain "refund"',
    });
    expect(criterion(result, "cites a date")).toMatchObject({
      status: "skipped",
      skippedReason: "when: the candidate does not match /\\d{4}-\\d{2}-\\d{2}/",
    });
    expect(judge.requests).toHaveLength(1);
    expect(result.judgeCalls).toBe(1);
  });

  it("grades a criterion whose predicate holds", async () => {
    const yaml = billing(criteria).replace(
      "Invoice 42 totaled $120.00.",
      "Invoice 42 (2025-05-01) totaled $120.00 after a refund.",
    );
    const judge = createFakeJudge(
      byCriterion({
        "states the total": { score: 1 },
        "explains the refund": { score: 0.1 },
        "cites a date": { score: 1 },
      }),
    );
    const result = await runOne(yaml, { judge });
    expect(result.criteria.map((c) => c.status)).toEqual(["graded", "graded", "graded"]);
    expect(result.score).toBeCloseTo(0.7, 10);
  });

  it("reports a vacuous pass, with a note, when every criterion is skipped", async () => {
    const onlyConditional = `
        - name: explains the refund
          description: "Explains how the refund was computed."
          when: { contains: "refund" }
          required: true`;
    const judge = createFakeJudge(always({ score: 0 }));
    const report = await runYaml(billing(onlyConditional), { judge });
    const result = report.results[0]!;
    expect(result).toMatchObject({
      status: "passed",
      vacuous: true,
      score: null,
      display: "vacuous",
      note: "vacuous pass: every criterion was skipped by its when: predicate",
      judgeCalls: 0,
    });
    expect(judge.requests).toHaveLength(0);
    expect(report.summary).toMatchObject({ passed: 1, vacuous: 1, failed: 0 });
    expect(exitCodeOf(report)).toBe(0);
  });
});
