import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { RunComparison } from "../../../components/results/run-comparison";
import { compareToBaseline } from "../../../lib/engine/trust/compare-baseline";
import type { EvalResult, Report } from "../../../lib/engine/results/report";

// The History page's comparison (hw7a): a keyless run (every result deferred) against one that
// graded them. No result newly passes or fails (deferred is neither), but every row changed: the
// headline and the Change column say so, and the gate counts no regression.

const text = (html: string) => html.replace(/<[^>]+>/g, " ").replace(/\s+/g, " ");

const result = (id: string, status: EvalResult["status"], score: number | null) =>
  ({ id, name: id, status, score }) as EvalResult;

function comparisonOf(before: EvalResult[], after: EvalResult[]) {
  return compareToBaseline({
    report: { results: after } as Report,
    baseline: before,
    baselineRunId: "base",
    maxDrop: 0.05,
  });
}

describe("the History page's comparison", () => {
  it("says the results a keyless run deferred are now graded", () => {
    const comparison = comparisonOf(
      [result("a", "deferred", null), result("b", "deferred", null), result("c", "passed", 0.9)],
      [result("a", "passed", 0.9), result("b", "judge_error", null), result("c", "skipped", null)],
    );
    expect(comparison.regressions).toBe(0);
    const html = renderToStaticMarkup(
      createElement(RunComparison, { comparison, headRunId: "head" }),
    );
    expect(text(html)).toContain("0 newly failing");
    expect(text(html)).toContain("2 now graded");
    expect(text(html)).toContain("1 no longer graded");
    const rows = html.split('data-testid="comparison-row"').slice(1).map(text);
    expect(rows).toHaveLength(3);
    expect(rows.find((r) => r.includes(" a "))).toContain("now graded");
    expect(rows.find((r) => r.includes(" b "))).toContain("now graded");
    expect(rows.find((r) => r.includes(" c "))).toContain("no longer graded");
  });

  it("says nothing of grading when both runs graded every result", () => {
    const comparison = comparisonOf([result("a", "passed", 0.9)], [result("a", "passed", 0.9)]);
    const html = renderToStaticMarkup(
      createElement(RunComparison, { comparison, headRunId: "head" }),
    );
    expect(text(html)).not.toContain("graded");
  });
});
