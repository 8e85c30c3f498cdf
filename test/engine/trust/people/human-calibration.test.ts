import { describe, expect, it } from "vitest";
import { humanCalibration } from "../../../../lib/engine/trust/people/human-calibration";
import type { EvalResult } from "../../../../lib/engine/results/report";
import { createFakeJudge } from "../../../support/fake-judge";
import { runYaml } from "../../../support/run-yaml";

// People as raters: each label beside the judges' verdict on the same
// criterion, as a calibration with MAE, Cohen's κ (hand-worked below) and its
// bootstrap interval.

const SUITE = `
evals:
  - name: answers
    response: "An answer."
    rubric:
      scale: boolean
      criteria:
        - { name: correct, description: "Correct." }
    matrix: { prompts: ["item 1", "item 2", "item 3", "item 4"] }
`;

describe("humanCalibration", () => {
  it("sets each label beside the judge's verdict: MAE, unweighted κ, outliers", async () => {
    // The judge passes items 1 and 2 and fails 3 and 4.
    const judge = createFakeJudge((request) => ({
      score: /item [12]\n/.test(request.candidatePrompt) ? 1 : 0,
    }));
    const results: EvalResult[] = (await runYaml(SUITE, { judge })).results;
    // People pass items 1 and 3 and fail 2 and 4: they agree on two of four.
    const people = [1, 0, 1, 0];
    const labels = results.map((result, i) => ({
      label: {
        id: `label-${i}-0000`,
        evalName: "answers",
        criterion: "correct",
        reviewer: "ana",
        candidate: "An answer.",
        score: people[i]!,
      },
      result,
    }));
    labels.push({
      label: {
        id: "gone-000",
        evalName: "answers",
        criterion: "correct",
        reviewer: "ana",
        candidate: "x",
        score: 1,
      },
      result: undefined as unknown as EvalResult,
    });
    const calibration = humanCalibration({ labels });
    expect(calibration.criteria).toHaveLength(1);
    const c = calibration.criteria[0]!;
    expect([c.eval, c.item, c.scale, c.graded, c.outliers]).toEqual([
      "answers",
      "correct",
      "boolean",
      4,
      2,
    ]);
    expect(c.mae).toBe(0.5);
    // Observed agreement 2/4, expected (2·2 + 2·2)/16 = 1/2: κ = (0.5 − 0.5) / (1 − 0.5) = 0.
    expect(c.kappa.value).toBeCloseTo(0, 12);
    expect(c.items.map((i) => [i.source, i.annotator, i.label, i.judged])).toEqual([
      ["person", "ana", 1, 1],
      ["person", "ana", 0, 1],
      ["person", "ana", 1, 0],
      ["person", "ana", 0, 0],
    ]);
    expect(c.kappa.ci95).toBeDefined();
    expect(c.kappa.ci95!.low).toBeLessThanOrEqual(0);
    expect(c.kappa.ci95!.high).toBeGreaterThanOrEqual(0);
  });
});
