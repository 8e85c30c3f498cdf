import { describe, expect, it } from "vitest";
import { always, createFakeJudge } from "../../support/fake-judge";
import { runOne } from "../../support/run-yaml";
import { formatScore, formatUsd } from "../../../lib/engine/results/format-score";

// A scale changes only the string a person reads; the 0..1 value that gates
// and every machine reporter use stays as the judge scored it.

const withScale = (scale: string, threshold = 0.7) => `
evals:
  - name: answer quality
    prompt: "What changed in the last release?"
    response: "The 2.3.0 release added per-tenant rate limits."
    rubric:
      threshold: ${threshold}
      ${scale}
      criteria:
        - name: accurate
          description: "States the correct change."
`;

describe("scale display in the report", () => {
  it("shows the raw 0..1 value by default (unit)", async () => {
    const result = await runOne(withScale(""), { judge: createFakeJudge(always({ score: 0.8 })) });
    expect(result.scale).toEqual({ kind: "unit" });
    expect(result.display).toBe("0.80");
  });

  it("shows likert as a point on the band, e.g. 4.0/5, with the score unchanged", async () => {
    const result = await runOne(withScale("scale: { likert: { min: 1, max: 5 } }"), {
      judge: createFakeJudge(always({ score: 0.75 })),
    });
    expect(result.display).toBe("4.0/5");
    expect(result.thresholdDisplay).toBe("3.8/5");
    expect(result.score).toBe(0.75);
    expect(result.status).toBe("passed");
    // The reason speaks the scale its score and threshold are shown in.
    expect(result.reason).toBe("score 4.0/5 ≥ threshold 3.8/5");
  });

  it("shows boolean as pass or fail by the eval's outcome, not by 0.5", async () => {
    const passed = await runOne(withScale("scale: boolean"), {
      judge: createFakeJudge(always({ score: 0.7 })),
    });
    expect(passed).toMatchObject({ display: "pass", score: 0.7, status: "passed" });
    // 0.6 is above 0.5 but below the 0.7 threshold: the eval fails, and so does the display.
    const failed = await runOne(withScale("scale: boolean"), {
      judge: createFakeJudge(always({ score: 0.6 })),
    });
    expect(failed).toMatchObject({ display: "fail", score: 0.6, status: "failed" });
  });

  it("shows letter as a grade, with the score unchanged", async () => {
    const result = await runOne(withScale("scale: letter"), {
      judge: createFakeJudge(always({ score: 0.85 })),
    });
    expect(result).toMatchObject({ display: "B", score: 0.85, status: "passed" });
    // Beside "B / C" a reason in 0..1 numbers ("score 0.85 ≥ threshold 0.70") reads as another scale.
    expect(result.reason).toBe("grade B ≥ threshold C");
    const failed = await runOne(withScale("scale: letter"), {
      judge: createFakeJudge(always({ score: 0.65 })),
    });
    expect(failed).toMatchObject({
      display: "D",
      status: "failed",
      reason: "grade D < threshold C",
    });
  });

  it("adds the 0..1 values when score and threshold read the same on the scale", async () => {
    const result = await runOne(withScale("scale: letter", 0.87), {
      judge: createFakeJudge(always({ score: 0.85 })),
    });
    expect(result).toMatchObject({ display: "B", thresholdDisplay: "B", status: "failed" });
    expect(result.reason).toBe("grade B < threshold B (0.85 < 0.87)");
  });

  it("gates on the 0..1 value whatever the scale", async () => {
    // 0.69 on 1..5 reads 3.8/5; a scale-aware gate would be tempted to round it up.
    const result = await runOne(withScale("scale: { likert: { min: 1, max: 5 } }"), {
      judge: createFakeJudge(always({ score: 0.69 })),
    });
    expect(result).toMatchObject({ display: "3.8/5", score: 0.69, status: "failed" });
    expect(result.reason).toBe("score 3.8/5 < threshold 3.8/5 (0.69 < 0.70)");
  });
});

describe("formatScore", () => {
  it.each([
    [1, "A"],
    [0.9, "A"],
    [0.89, "B"],
    [0.8, "B"],
    [0.7, "C"],
    [0.6, "D"],
    [0.59, "F"],
    [0, "F"],
  ])("letter: %s reads %s", (score, letter) => {
    expect(formatScore({ score, scale: { kind: "letter" } })).toBe(letter);
  });

  it.each([
    [0, "1.0/5"],
    [0.5, "3.0/5"],
    [1, "5.0/5"],
  ])("likert 1..5: %s reads %s", (score, text) => {
    expect(formatScore({ score, scale: { kind: "likert", min: 1, max: 5 } })).toBe(text);
  });

  it("likert 0..10 maps the ends of 0..1 to the ends of the band", () => {
    expect(formatScore({ score: 0.35, scale: { kind: "likert", min: 0, max: 10 } })).toBe("3.5/10");
  });

  it("boolean without an outcome falls back to score ≥ 0.5", () => {
    expect(formatScore({ score: 0.5, scale: { kind: "boolean" } })).toBe("pass");
    expect(formatScore({ score: 0.49, scale: { kind: "boolean" } })).toBe("fail");
  });

  it("shows a dash when there is no score", () => {
    expect(formatScore({ score: null, scale: { kind: "unit" } })).toBe("–");
  });
});

describe("formatUsd", () => {
  it("keeps enough digits to tell small judge bills apart", () => {
    expect(formatUsd(0)).toBe("$0");
    expect(formatUsd(0.0042)).toBe("$0.0042");
    expect(formatUsd(1.5)).toBe("$1.50");
  });
});
