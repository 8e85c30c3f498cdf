import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { CriteriaList } from "../../../components/results/criteria-list";
import { SKIPPED } from "../../../lib/engine/call-judge";
import { matchWhen } from "../../../lib/engine/match-when";
import type { CriterionResult } from "../../../lib/engine/results/report";

// A criterion that was not graded says why once, with the right cause: a
// cancelled run's criterion is not a `when:` skip (issue 12, items 1 and 2).

const text = (html: string) => html.replace(/<[^>]+>/g, " ").replace(/&#x27;/g, "'").replace(/&quot;/g, "\"").replace(/\s+/g, " ");

function notGraded(skippedReason: string): CriterionResult {
  return { name: "polite", description: "", weight: 1, required: false, guard: false, threshold: 0.7, status: "skipped", skippedReason, score: null, passed: null, reasoning: "", gates: [], verdicts: [] };
}

describe("a criterion that was not graded", () => {
  it("cancelled: says the run was cancelled, not that a when: predicate skipped it", () => {
    const shown = text(renderToStaticMarkup(createElement(CriteriaList, { criteria: [notGraded(SKIPPED.criterion("cancelled"))] })));
    expect(shown).toContain("not graded: the run was cancelled before this criterion's judge call");
    expect(shown).not.toContain("when:");
  });

  it("when: names the predicate once", () => {
    const reason = matchWhen({ contains: "refund" }, "hello").reason!;
    const shown = text(renderToStaticMarkup(createElement(CriteriaList, { criteria: [notGraded(reason)] })));
    expect(shown).toContain('not graded: when: the candidate does not contain "refund"');
    expect(shown.match(/when:/g)).toHaveLength(1);
  });
});
