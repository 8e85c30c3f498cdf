import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { CalibrationCriteria } from "../../../components/calibration/calibration-view";
import { PeopleAgreement } from "../../../components/review/people-agreement";
import type { EvalResult } from "../../../lib/engine/results/report";
import { humanCalibration } from "../../../lib/engine/trust/people/human-calibration";
import { createFakeJudge } from "../../support/fake-judge";
import { runYaml } from "../../support/run-yaml";

// Issue #14, item 2: one person's label against the judges is not a Cohen's κ
// of 0.000; with too few labels (or one category only) κ is undefined, and
// both people views read "n/a" with why.

const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, " ")
    .replace(/&#x27;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/\s+/g, " ");

const SUITE = `
evals:
  - name: answers
    response: "An answer."
    rubric:
      criteria:
        - { name: correct, description: "Correct." }
    matrix: { prompts: ["item 1", "item 2"] }
`;

async function labelled(scores: number[]) {
  // The judge gives every item 1.00.
  const results: EvalResult[] = (
    await runYaml(SUITE, { judge: createFakeJudge(() => ({ score: 1 })) })
  ).results;
  const labels = scores.map((score, i) => ({
    label: {
      id: `label-${i}-0000`,
      evalName: "answers",
      criterion: "correct",
      reviewer: "ana",
      candidate: "An answer.",
      score,
    },
    result: results[i]!,
  }));
  return humanCalibration({ labels });
}

describe("people's labels against the judges", () => {
  it("one label: κ reads n/a, too few, in People × judges and in Against people's labels", async () => {
    const calibration = await labelled([0]);
    expect(calibration.criteria[0]!.kappa).toMatchObject({
      value: null,
      note: "one graded item is too few: κ needs at least two",
    });
    expect(calibration.criteria[0]!.kappa.ci95).toBeUndefined();
    const agreement = text(
      renderToStaticMarkup(createElement(PeopleAgreement, { result: calibration, suiteId: "s" })),
    );
    expect(agreement).toContain("n/a one graded item is too few: κ needs at least two");
    expect(agreement).not.toContain("0.000");
    const view = text(
      renderToStaticMarkup(createElement(CalibrationCriteria, { result: calibration })),
    );
    expect(view).toContain("Cohen's κ (quadratic) n/a: one graded item is too few");
  });

  it("two labels but the judges in one category only: n/a, no variance", async () => {
    const calibration = await labelled([0, 1]);
    expect(calibration.criteria[0]!.kappa.value).toBeNull();
    const agreement = text(
      renderToStaticMarkup(createElement(PeopleAgreement, { result: calibration, suiteId: "s" })),
    );
    expect(agreement).toContain(
      "n/a no variance: the judges put all 2 items in one category (1.00)",
    );
  });
});
