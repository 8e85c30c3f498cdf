import { describe, expect, it } from "vitest";
import { runCalibration } from "../../lib/engine/run-calibration";
import { categoryOf, createFakeJudge, type FakeAnswer } from "../support/fake-judge";
import { suiteFrom, DEFAULT_MODEL } from "../support/run-yaml";
import type { FakeJudge } from "../support/fake-judge";

// Calibration: the configured judge grades labelled anchors, category
// examples and dataset items; per criterion the report compares. Expected
// numbers are worked out by hand in the comments.

let clock = 0;
const calibrate = (yaml: string, judge: FakeJudge, extra: { maxError?: number } = {}) =>
  runCalibration(
    {
      suite: suiteFrom(yaml),
      defaultModel: DEFAULT_MODEL,
      concurrency: 4,
      toolVersion: "test",
      ...extra,
    },
    { judge, now: () => ++clock, priceOf: () => undefined },
  );

const candidateOf = (prompt: string) =>
  /<candidate_response>\n([\s\S]*?)\n<\/candidate_response>/.exec(prompt)?.[1] ?? "";

const ANCHORS = `
evals:
  - name: release notes
    prompt: "What changed in 2.3?"
    response: "unused"
    rubric:
      criteria:
        - name: grounded
          description: "Every claim is supported by the release notes."
          examples:
            - { response: "ANCHOR-1", score: 1.0 }
            - { response: "ANCHOR-2", score: 0.0 }
            - { response: "ANCHOR-3", score: 0.5 }
            - { response: "ANCHOR-4", score: 0.75 }
`;

describe("calibrate", () => {
  it("grades every anchor with itself left out of the prompt, and reports MAE, quadratic kappa, confusion and outliers", async () => {
    const judged: Record<string, number> = {
      "ANCHOR-1": 0.9,
      "ANCHOR-2": 0.1,
      "ANCHOR-3": 0.5,
      "ANCHOR-4": 0.25,
    };
    const judge = createFakeJudge((request) => ({
      score: judged[candidateOf(request.candidatePrompt)]!,
    }));
    const result = await calibrate(ANCHORS, judge, { maxError: 0.1 });

    expect(judge.requests).toHaveLength(4);
    for (const request of judge.requests) {
      const own = candidateOf(request.candidatePrompt);
      expect(request.stablePrompt).not.toContain(`"${own}"`);
      expect(request.stablePrompt.match(/ANCHOR-\d/g)).toHaveLength(3);
    }
    const c = result.criteria[0]!;
    expect(c).toMatchObject({
      eval: "release notes",
      item: "grounded",
      scale: "unit",
      graded: 4,
      outliers: 1,
    });
    // |0.9-1| + |0.1-0| + |0.5-0.5| + |0.25-0.75| = 0.7, over 4 anchors
    expect(c.mae).toBeCloseTo(0.175, 10);
    expect(c.items.find((i) => i.id === "4")).toMatchObject({
      label: 0.75,
      judged: 0.25,
      outlier: true,
    });
    // Quarter bands: labels (1, 0, .5, .75) -> judged (1, 0, .5, .25). Quadratic weights over 5 bands:
    // observed 4 (one pair two bands apart), expected 74 / 4 = 18.5, so kappa = 1 - 4 / 18.5 = 29/37.
    expect(c.kappa).toEqual({ weights: "quadratic", value: expect.closeTo(29 / 37, 10) });
    expect(c.confusion.categories).toEqual(["0.00", "0.25", "0.50", "0.75", "1.00"]);
    expect(c.confusion.matrix[3]).toEqual([0, 1, 0, 0, 0]);
    // MAE 0.175 passes --max-error 0.1.
    expect(result.overMaxError).toEqual([{ eval: "release notes", item: "grounded", mae: 0.175 }]);
  });

  it("grades category examples per level, and dataset items against their human labels", async () => {
    const yaml = `
datasets:
  prds:
    items:
      - { id: p1, expected_output: "DOC-GOOD", annotations: [{ name: goal, label: pass, annotator_type: human }] }
      - { id: p2, expected_output: "DOC-BAD", annotations: [{ name: goal, label: fail, annotator_type: human }, { name: unknown, score: 1 }] }
evals:
  - name: prd
    document: "the PRD"
    dataset: prds
    rubric:
      categories:
        - id: goal
          description: "States the goal."
          required: true
          examples:
            pass: { excerpt: "EX-PASS", reasoning: "clear goal" }
            fail: { excerpt: "EX-FAIL", reasoning: "no goal" }
`;
    const verdicts: Record<string, "pass" | "partial" | "fail"> = {
      "EX-PASS": "pass",
      "EX-FAIL": "partial",
      "DOC-GOOD": "pass",
      "DOC-BAD": "fail",
    };
    const judge = createFakeJudge((request): FakeAnswer => {
      expect(categoryOf(request)).toBe("goal");
      return {
        verdict: {
          reasoning: "r",
          score: verdicts[candidateOf(request.candidatePrompt)]!,
          evidence: [],
          findings: [],
        },
      };
    });
    const result = await calibrate(yaml, judge);
    expect(judge.requests).toHaveLength(4);
    const c = result.criteria[0]!;
    expect(c.items.map((i) => [i.source, i.id, i.label, i.judged])).toEqual([
      ["example", "pass", 1, 1],
      ["example", "fail", 0, 0.5],
      ["dataset", "p1", 1, 1],
      ["dataset", "p2", 0, 0],
    ]);
    expect(c.items[2]!.annotator).toBe("human");
    // Rows labelled, columns judged, in the order fail, partial, pass.
    expect(c.confusion).toEqual({
      categories: ["fail", "partial", "pass"],
      matrix: [
        [1, 1, 0],
        [0, 0, 0],
        [0, 0, 2],
      ],
    });
    // Unweighted: observed agreement 3/4; chance = (2/4 * 1/4) + (0 * 1/4) + (2/4 * 2/4) = 3/8; kappa = (3/4 - 3/8) / (5/8) = 0.6.
    expect(c.kappa).toEqual({ weights: "unweighted", value: expect.closeTo(0.6, 10) });
    expect(c.outliers).toBe(1);
  });

  it("a judge error leaves the item ungraded: counted, never scored", async () => {
    const judge = createFakeJudge((request) =>
      candidateOf(request.candidatePrompt) === "ANCHOR-2" ? { error: "malformed" } : { score: 0.8 },
    );
    const result = await calibrate(ANCHORS, judge);
    expect(result.ungraded).toBe(1);
    expect(result.criteria[0]!.items.find((i) => i.id === "2")).toMatchObject({
      judged: null,
      error: null,
      outlier: false,
    });
    expect(result.criteria[0]!.graded).toBe(3);
  });
});
