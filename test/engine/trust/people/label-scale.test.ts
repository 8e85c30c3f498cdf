import { describe, expect, it } from "vitest";
import { labelScaleOf, parseLabel } from "../../../../lib/engine/trust/people/label-scale";
import { calibrationQuestions } from "../../../../lib/engine/trust/people/needs-person";
import type { CalibrationResult } from "../../../../lib/engine/results/trust";

// A person answers on the criterion's own scale: the points, the key that
// picks each, their 0..1 values, and answers off the scale refused with why.

describe("labelScaleOf", () => {
  it("gives each scale its points, keys and 0..1 values", () => {
    const pick = (rubricKind: string, scale: Parameters<typeof labelScaleOf>[0]["scale"]) =>
      labelScaleOf({ rubricKind, scale }).points.map((p) => [p.key, p.value, p.score]);
    expect(pick("criteria", { kind: "likert", min: 1, max: 5 })).toEqual([
      ["1", "1", 0],
      ["2", "2", 0.25],
      ["3", "3", 0.5],
      ["4", "4", 0.75],
      ["5", "5", 1],
    ]);
    expect(pick("criteria", { kind: "likert", min: 1, max: 10 }).map(([key]) => key)).toEqual([
      "1",
      "2",
      "3",
      "4",
      "5",
      "6",
      "7",
      "8",
      "9",
      "10",
    ]);
    expect(pick("criteria", { kind: "boolean" })).toEqual([
      ["0", "fail", 0],
      ["1", "pass", 1],
    ]);
    expect(pick("freeform", { kind: "letter" }).map(([, value]) => value)).toEqual([
      "F",
      "D",
      "C",
      "B",
      "A",
    ]);
    expect(pick("criteria", { kind: "unit" }).map(([, value]) => value)).toEqual([
      "0.00",
      "0.25",
      "0.50",
      "0.75",
      "1.00",
    ]);
    expect(pick("decision", { kind: "unit" })).toEqual([
      ["1", "fail", 0],
      ["2", "conditional", 0.5],
      ["3", "pass", 1],
    ]);
    expect(pick("categories", { kind: "unit" })).toEqual([
      ["1", "fail", 0],
      ["2", "partial", 0.5],
      ["3", "pass", 1],
    ]);
    expect(pick("pairwise", { kind: "unit" })).toEqual([
      ["1", "A", null],
      ["2", "B", null],
      ["3", "tie", null],
    ]);
  });
});

describe("parseLabel", () => {
  it("reads a point in any case, any 0..1 number on a unit scale, and refuses the rest with the scale's points", () => {
    const unit = labelScaleOf({ rubricKind: "criteria", scale: { kind: "unit" } });
    expect(parseLabel(unit, "0.8")).toEqual({ ok: true, value: "0.80", score: 0.8 });
    expect(parseLabel(unit, "1.5")).toEqual({
      ok: false,
      message: '"1.5" is not on the unit scale: use a number from 0 to 1',
    });
    const letter = labelScaleOf({ rubricKind: "criteria", scale: { kind: "letter" } });
    expect(parseLabel(letter, "b")).toEqual({ ok: true, value: "B", score: 0.85 });
    expect(parseLabel(letter, "E")).toEqual({
      ok: false,
      message: '"E" is not on the letter scale: use F, D, C, B, A',
    });
    expect(
      parseLabel(labelScaleOf({ rubricKind: "pairwise", scale: { kind: "unit" } }), "Tie"),
    ).toEqual({ ok: true, value: "tie", score: null });
  });
});

describe("calibrationQuestions", () => {
  const item = (id: string, label: number, judged: number, outlier: boolean) => ({
    id,
    source: "anchor" as const,
    label,
    judged,
    error: judged - label,
    outlier,
    reasoning: "",
    text: id,
  });

  it("asks about each outlier without saying what it was labelled or judged (a person answers first)", () => {
    const calibration = {
      tolerance: 0.25,
      criteria: [
        {
          eval: "refunds",
          item: "cites policy",
          scale: "unit",
          items: [item("a1", 1, 0.3, true), item("a2", 0.5, 0.6, false)],
        },
      ],
    } as unknown as CalibrationResult;
    const questions = calibrationQuestions(calibration);
    expect(questions).toEqual([
      {
        resultKey: "a1",
        evalName: "refunds",
        criterion: "cites policy",
        reason: "calibration_outlier",
        detail: "the judge and the suite's label differ",
      },
    ]);
    expect(JSON.stringify(questions)).not.toMatch(/1\.00|0\.30|labelled|judged/);
  });

  it("asks once about an anchor of a rubric several evals share, naming the evals that missed it", () => {
    const criteria = ["e1", "e2", "e3", "e4"].flatMap((e) =>
      ["tone", "facts"].map((c) => ({
        eval: e,
        item: c,
        scale: "unit",
        items: [item(`${c}-0`, 0, 1, true), item(`${c}-1`, 1, 1, false)],
      })),
    );
    const questions = calibrationQuestions({
      tolerance: 0.25,
      criteria,
    } as unknown as CalibrationResult);
    expect(questions.map((q) => [q.evalName, q.criterion, q.resultKey, q.detail])).toEqual([
      [
        "e1",
        "tone",
        "tone-0",
        "the judge and the suite's label differ (in 4 evals sharing the rubric: e1, e2, e3, e4)",
      ],
      [
        "e1",
        "facts",
        "facts-0",
        "the judge and the suite's label differ (in 4 evals sharing the rubric: e1, e2, e3, e4)",
      ],
    ]);
  });
});
