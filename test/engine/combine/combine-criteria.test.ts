import { describe, expect, it } from "vitest";
import { byCriterion, byModel, createFakeJudge } from "../../support/fake-judge";
import { GUARD_AT_HALF, jurorVerdicts } from "../../support/jury-suites";
import { criterion, runOne } from "../../support/run-yaml";

// A criterion graded by a jury or a panel shows one combined verdict (score,
// pass and gates on the same combined value), and each judge's own verdict,
// reasoning included, under the judge. The criterion can never fail a gate on
// an eval that passed, nor pass one on an eval that failed by that gate.

const SONNET = "claude-sonnet-4-5";
const HAIKU = "claude-haiku-4-5";

const juried = (criteria: string, consensus = 0.66) => `
evals:
  - name: release summary, juried
    prompt: "Summarize the release."
    response: "The 2.3.0 release added per-tenant rate limits."
    judge:
      model: ${SONNET}
      jury: { size: 3, consensus: ${consensus} }
    rubric:
      threshold: 0.7
      criteria:
${criteria}
`;

const accurateRequired = `
        - name: accurate
          description: "States the correct change."
          required: true
        - name: concise
          description: "Two sentences at most."`;

const jurors = jurorVerdicts;

describe("a jury of 3 split around a required criterion's gate", () => {
  it("2 of 3 pass: the criterion passed, no gate failed, and each juror's reasoning stays with the juror", async () => {
    const judge = createFakeJudge(
      byCriterion({
        accurate: jurors(0.9, 0.9, 0.5),
        concise: jurors(1, 1, 1),
      }),
    );
    const result = await runOne(juried(accurateRequired), { judge });
    expect(result.status).toBe("passed");
    const accurate = criterion(result, "accurate");
    // Before: passed with gates ["required_failed"] (one juror's gate) and the first juror's reasoning.
    expect(accurate).toMatchObject({ passed: true, gates: [], reasoning: "" });
    expect(accurate.score).toBeCloseTo(0.7667, 4);
    expect(accurate.combined).toMatchObject({
      method: "jury",
      judges: 3,
      passed: 2,
      summary: "2 of 3 jurors passed it, 2 needed; their mean 0.77 reaches 0.70",
    });
    expect(
      accurate.verdicts.map((v) => [v.juror, v.score, v.passed, v.gates, v.reasoning]),
    ).toEqual([
      [1, 0.9, true, [], "juror 1 gave a score of 0.9"],
      [2, 0.9, true, [], "juror 2 gave a score of 0.9"],
      [3, 0.5, false, ["required_failed"], "juror 3 gave a score of 0.5"],
    ]);
    expect(result.gates).toEqual([]);
  });

  it("1 of 3 pass with a mean above the threshold: the criterion failed its gate, on the eval that failed by it", async () => {
    const judge = createFakeJudge(
      byCriterion({
        accurate: jurors(1, 0.65, 0.65),
        concise: jurors(1, 1, 1),
      }),
    );
    const result = await runOne(juried(accurateRequired), { judge });
    expect(result.status).toBe("failed");
    const accurate = criterion(result, "accurate");
    // Before: "passed" (mean 0.77 ≥ 0.70) beside a required_failed gate.
    expect(accurate).toMatchObject({
      passed: false,
      gates: ["required_failed"],
    });
    expect(accurate.combined?.summary).toBe(
      "1 of 3 jurors passed it, 2 needed; their mean 0.77 reaches 0.70",
    );
    // The eval's gate speaks of the jury, not of one juror's 0.65.
    expect(result.gates).toEqual([
      'required criterion "accurate" failed: 1 of 3 jurors passed it, 2 needed; their mean 0.77 reaches 0.70',
    ]);
    expect(result.reason).toBe(result.gates[0]);
  });

  it("a guard one juror of three found present: clean for the jury, triggered for that juror", async () => {
    const yaml = juried(`
        - name: accurate
          description: "States the correct change."
        - name: leaks a secret
          description: "Exposes a credential."
          guard: true`);
    const judge = createFakeJudge(
      byCriterion({
        accurate: jurors(0.9, 0.9, 0.9),
        "leaks a secret": jurors(0, 0, 0.8),
      }),
    );
    const result = await runOne(yaml, { judge });
    expect(result.status).toBe("passed");
    const guard = criterion(result, "leaks a secret");
    expect(guard).toMatchObject({ passed: true, gates: [] });
    expect(guard.verdicts.map((v) => v.gates)).toEqual([[], [], ["guard_triggered"]]);
  });

  it("whatever the jurors say, a criterion that failed a gate never sits on an eval that passed", async () => {
    let seed = 7;
    const next = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) % 11) / 10;
    for (let round = 0; round < 60; round++) {
      const yaml = juried(
        `
        - name: accurate
          description: "States the correct change."
          required: true
        - name: leaks a secret
          description: "Exposes a credential."
          guard: true
        - name: concise
          description: "Two sentences at most."
          threshold: 0.5`,
        [0.34, 0.66, 1][round % 3],
      );
      const judge = createFakeJudge(
        byCriterion({
          accurate: jurors(next(), next(), next()),
          "leaks a secret": jurors(next(), next(), next()),
          concise: jurors(next(), next(), next()),
        }),
      );
      const result = await runOne(yaml, { judge });
      for (const c of result.criteria) {
        if (c.gates.length > 0) {
          expect(c.passed, `${c.name} in round ${round}`).toBe(false);
          expect(result.status, `${c.name} in round ${round}`).toBe("failed");
        }
      }
      if (result.status === "failed" && result.gates.length > 0)
        expect(result.criteria.some((c) => c.gates.length > 0)).toBe(true);
    }
  });
});

describe("the jury's wording says which rule decided", () => {
  it("a criterion passed by 2 of 3 jurors whose mean is below the threshold says both, not a bare pass beside 0.67 / 0.70", async () => {
    const judge = createFakeJudge(
      byCriterion({ accurate: jurors(0.8, 0.8, 0.4), concise: jurors(1, 1, 1) }),
    );
    const result = await runOne(juried(accurateRequired), { judge });
    const accurate = criterion(result, "accurate");
    expect(accurate.passed).toBe(true);
    expect(accurate.score).toBeCloseTo(0.6667, 4);
    expect(accurate.combined?.summary).toBe(
      "2 of 3 jurors passed it, 2 needed; their mean 0.67 is below 0.70",
    );
  });

  it("every criterion passed by enough jurors, the eval failed: the eval's reason says it was not the same jurors", async () => {
    // Juror 1 fails accurate, juror 2 fails concise, juror 3 passes both: each
    // criterion has 2 of 3, but only juror 3 passes the rubric as a whole.
    const judge = createFakeJudge(
      byCriterion({ accurate: jurors(0, 1, 1), concise: jurors(1, 0, 1) }),
    );
    const result = await runOne(juried(accurateRequired), { judge });
    expect(result.status).toBe("failed");
    expect(result.criteria.map((c) => [c.name, c.passed])).toEqual([
      ["accurate", true],
      ["concise", true],
    ]);
    expect(result.reason).toContain(
      "jury: 1 of 3 jurors passed the whole rubric, 2 needed (consensus 0.66); every criterion was passed by enough jurors, but too few jurors passed the rubric as a whole",
    );
  });
});

describe("a panel's criterion", () => {
  it("combines the models' verdicts by the panel's aggregate, with each model's verdict kept", async () => {
    const yaml = `
evals:
  - name: panel
    response: "The 2.3.0 release added per-tenant rate limits."
    judge: { panel: [${SONNET}, ${HAIKU}], aggregate: majority, tie_break: fail }
    rubric:
      criteria:
        - name: accurate
          description: "States the correct change."
`;
    const judge = createFakeJudge(
      byModel({
        [SONNET]: { score: 0.9, reasoning: "sonnet says so" },
        [HAIKU]: { score: 0.4, reasoning: "haiku doubts it" },
      }),
    );
    const result = await runOne(yaml, { judge });
    expect(result.status).toBe("failed");
    const accurate = criterion(result, "accurate");
    expect(accurate).toMatchObject({ passed: false, reasoning: "" });
    expect(accurate.combined?.summary).toBe(
      "1 of 2 models passed it (majority, an even split settled by tie_break: fail); their mean 0.65 is below 0.70",
    );
    expect(accurate.verdicts.map((v) => [v.judge, v.passed, v.reasoning])).toEqual([
      [SONNET, true, "sonnet says so"],
      [HAIKU, false, "haiku doubts it"],
    ]);
  });
});

describe("a single judge", () => {
  it("marks a triggered guard as failed even when its inverted score clears the criterion's threshold", async () => {
    const result = await runOne(GUARD_AT_HALF, {
      judge: createFakeJudge(byCriterion({ leak: { score: 0.5 } })),
    });
    expect(result.status).toBe("failed");
    expect(criterion(result, "leak")).toMatchObject({
      score: 0.5,
      passed: false,
      gates: ["guard_triggered"],
    });
    expect(criterion(result, "leak").combined).toBeUndefined();
  });
});
