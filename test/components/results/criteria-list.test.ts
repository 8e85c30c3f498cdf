import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { CriteriaList } from "../../../components/results/criteria-list";
import { SKIPPED } from "../../../lib/engine/grade/call-judge";
import { matchWhen } from "../../../lib/engine/grade/match-when";
import type { CriterionResult } from "../../../lib/engine/results/report";
import { criterionMarks } from "../../../lib/report/format";

// A criterion that was not graded says why once, with the right cause: a
// cancelled run's criterion is not a `when:` skip (issue 12, items 1 and 2).

const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, " ")
    .replace(/&#x27;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/\s+/g, " ");

function notGraded(skippedReason: string): CriterionResult {
  return {
    name: "polite",
    description: "",
    weight: 1,
    required: false,
    guard: false,
    threshold: 0.7,
    status: "skipped",
    skippedReason,
    score: null,
    passed: null,
    reasoning: "",
    gates: [],
    verdicts: [],
  };
}

describe("a criterion that was not graded", () => {
  it("cancelled: says the run was cancelled, not that a when: predicate skipped it", () => {
    const shown = text(
      renderToStaticMarkup(
        createElement(CriteriaList, { criteria: [notGraded(SKIPPED.criterion("cancelled"))] }),
      ),
    );
    expect(shown).toContain("not graded: the run was cancelled before this criterion's judge call");
    expect(shown).not.toContain("when:");
  });

  it("when: names the predicate once", () => {
    const reason = matchWhen({ contains: "refund" }, "hello").reason!;
    const shown = text(
      renderToStaticMarkup(createElement(CriteriaList, { criteria: [notGraded(reason)] })),
    );
    expect(shown).toContain('not graded: when: the candidate does not contain "refund"');
    expect(shown.match(/when:/g)).toHaveLength(1);
  });
});

// New-user walk, item 2: a judge_error criterion said "required: held" and
// "guard: clean (score inverted)" although neither was graded.
describe("the gates of a criterion that was not graded", () => {
  const errored = (role: { required?: boolean; guard?: boolean }): CriterionResult => ({
    ...notGraded(""),
    skippedReason: undefined,
    status: "judge_error",
    required: role.required ?? false,
    guard: role.guard ?? false,
  });

  it("a judge error on a required criterion does not say the gate held", () => {
    const shown = text(
      renderToStaticMarkup(
        createElement(CriteriaList, { criteria: [errored({ required: true })] }),
      ),
    );
    expect(shown).toContain("required: not graded");
    expect(shown).not.toContain("held");
  });

  it("a judge error on a guard does not say it was clean", () => {
    const shown = text(
      renderToStaticMarkup(createElement(CriteriaList, { criteria: [errored({ guard: true })] })),
    );
    expect(shown).toContain("guard: not graded");
    expect(shown).not.toContain("clean");
  });

  it("the reporters mark it as not graded, not as a plain required/guard", () => {
    expect(criterionMarks(errored({ required: true, guard: true }))).toEqual([
      "required (not graded)",
      "guard (not graded)",
      "judge error",
    ]);
  });

  it("a graded required criterion still says held", () => {
    const shown = text(
      renderToStaticMarkup(
        createElement(CriteriaList, {
          criteria: [
            { ...errored({ required: true }), status: "graded", score: 0.9, passed: true },
          ],
        }),
      ),
    );
    expect(shown).toContain("required: held");
  });
});
