import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { RunComparison } from "../../../components/results/run-comparison";
import { compareToBaseline, gradedChangeOf } from "../../../lib/engine/trust/compare-baseline";
import type { EvalResult, Report } from "../../../lib/engine/results/report";

// The History page's comparison (hw7a): a keyless run (every result deferred) against one that
// graded them. No result newly passes or fails (deferred is neither), but every row changed: the
// headline and the Change column say so, and the gate counts no regression.

const text = (html: string) => html.replace(/<[^>]+>/g, " ").replace(/\s+/g, " ");

const result = (id: string, status: EvalResult["status"], score: number | null) =>
  ({ id, name: id, status, score }) as EvalResult;

/** As the store compares two runs (run-comparison.ts: its counts are the engine's), `shown` rows kept. */
function comparisonOf(before: EvalResult[], after: EvalResult[], shown = after.length) {
  const engine = compareToBaseline({
    report: { results: after } as Report,
    baseline: before,
    baselineRunId: "base",
    maxDrop: 0.05,
  });
  const graded = (kind: string) => engine.deltas.filter((d) => gradedChangeOf(d) === kind).length;
  return {
    ...engine,
    deltas: engine.deltas.slice(0, shown),
    compared: engine.deltas.length,
    nowGraded: graded("now_graded"),
    noLongerGraded: graded("no_longer_graded"),
  };
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

  it("counts every result and says how many rows are not shown", () => {
    const before = Array.from({ length: 250 }, (_, i) => result(`r${i}`, "deferred", null));
    const after = before.map((r) => ({ ...r, status: "passed", score: 0.9 }) as EvalResult);
    const html = renderToStaticMarkup(
      createElement(RunComparison, {
        comparison: comparisonOf(before, after, 200),
        headRunId: "h",
      }),
    );
    expect(text(html)).toContain("250 now graded");
    expect(html.split('data-testid="comparison-row"')).toHaveLength(201);
    expect(text(html)).toContain("… 50 more not shown (of 250 results compared");
  });
});
