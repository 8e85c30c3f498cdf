import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { splitCellName } from "../../../components/results/format";
import { cellSummary, cellTone } from "../../../components/results/matrix-heatmap";
import { ScoreCell } from "../../../components/results/results-table";
import { passRate, passRateText, runOutcome } from "../../../components/results/run-outcome";

// What the run page's table and heatmap say of a result or a cell (issue 12,
// items 4 and 5): a score against a threshold only where there is one, and a
// cell's colour from whether its results passed, not from their mean.

const text = (html: string) => html.replace(/<[^>]+>/g, "");

describe("the results table's score column", () => {
  it("shows a comparison's winner, not 0.00 / 0.70", () => {
    const html = renderToStaticMarkup(
      createElement(ScoreCell, {
        row: {
          score: 0,
          threshold: 0.7,
          comparison: { winner: "B", labels: { a: "v1", b: "v2" } },
          decision: null,
        },
      }),
    );
    expect(text(html)).toBe("winner B (v2)");
    expect(text(html)).not.toContain("0.70");
  });

  it("shows a review's decision, not 0.50 / 0.70", () => {
    const html = renderToStaticMarkup(
      createElement(ScoreCell, {
        row: { score: 0.5, threshold: 0.7, comparison: null, decision: "human_review" },
      }),
    );
    expect(text(html)).toBe("decision: human review");
  });

  it("keeps the score against the threshold for rubrics that have one", () => {
    expect(
      text(
        renderToStaticMarkup(
          createElement(ScoreCell, {
            row: { score: 0.82, threshold: 0.7, comparison: null, decision: null },
          }),
        ),
      ),
    ).toBe("0.82 / 0.70");
  });
});

describe("a heatmap cell", () => {
  it("where nothing passed is a failing cell, however high its mean", () => {
    expect(cellTone({ passed: 0, failed: 3, judge_error: 0 })).toBe("fail");
    expect(cellSummary({ passed: 0, failed: 3, judge_error: 0 })).toBe("0 of 3 graded passed (0%)");
  });

  it("is passing only when all passed, mixed between, ungraded when nothing was graded", () => {
    expect(cellTone({ passed: 2, failed: 0, judge_error: 0 })).toBe("pass");
    expect(cellTone({ passed: 1, failed: 3, judge_error: 0 })).toBe("mixed");
    expect(cellTone({ passed: 0, failed: 0, judge_error: 0 })).toBe("ungraded");
  });

  it("of a no-key run (its one result deferred) is grey 'nothing graded', not red '0 of 1 passed (0%)', as the runs list says '—'", () => {
    const deferred = { passed: 0, failed: 0, judge_error: 0 };
    expect(cellTone(deferred)).toBe("ungraded");
    expect(cellSummary(deferred)).toBe("nothing graded");
    expect(passRate(deferred)).toBeNull();
  });

  it("of a cancelled run gives the runs list's pass rate: skipped results are not graded, a judge error is graded and not passed", () => {
    // 72 passed of 120 graded (48 failed or judge errors), 130 skipped (cancelled): 60% as on the runs list, not 18 of 250 (7%).
    const cell = { passed: 72, failed: 40, judge_error: 8 };
    expect(cellSummary(cell)).toBe(
      `72 of 120 graded passed (${Math.round(passRate(cell)! * 100)}%)`,
    );
    expect(cellSummary(cell)).toContain("(60%)");
    expect(cellTone(cell)).toBe("mixed");
  });
});

describe("a result's name", () => {
  it("splits into the eval and its cell, so two cells of one eval read differently", () => {
    expect(splitCellName("matrix summary [model=claude-haiku-4-5, prompt=#2]")).toEqual({
      eval: "matrix summary",
      cell: "model=claude-haiku-4-5, prompt=#2",
    });
    expect(splitCellName("plain eval")).toEqual({ eval: "plain eval", cell: null });
  });
});

describe("a run's badge", () => {
  it("says a completed run with failures failed, in red, not a green completed", () => {
    expect(runOutcome("completed", { passed: 8, failed: 2, judge_error: 0 })).toEqual({
      label: "completed · 2 failed",
      tone: "danger",
    });
    expect(runOutcome("completed", { passed: 8, failed: 0, judge_error: 1 })).toEqual({
      label: "completed · 1 judge error",
      tone: "warning",
    });
  });

  it("is green only when everything graded passed; a run that graded nothing is not a success", () => {
    expect(runOutcome("completed", { passed: 8, failed: 0, judge_error: 0 }).tone).toBe("success");
    expect(runOutcome("completed", { passed: 0, failed: 0, judge_error: 0 })).toEqual({
      label: "completed · nothing graded",
      tone: "neutral",
    });
    expect(runOutcome("running", { passed: 1, failed: 1, judge_error: 0 }).tone).toBe("info");
  });

  // A walk's finding: 12 passed and 1 deferred read a green "all passed" beside the run page's
  // own "1 of 13 results deferred".
  it("never says 'all passed' over a deferred or skipped result", () => {
    expect(
      runOutcome("completed", { passed: 12, failed: 0, judge_error: 0, deferred: 1, skipped: 0 }),
    ).toEqual({ label: "all graded passed · 1 deferred", tone: "success" });
    expect(
      runOutcome("completed", { passed: 2, failed: 0, judge_error: 0, deferred: 1, skipped: 3 })
        .label,
    ).toBe("all graded passed · 1 deferred, 3 skipped");
    expect(
      runOutcome("completed", { passed: 2, failed: 0, judge_error: 0, deferred: 0, skipped: 0 })
        .label,
    ).toBe("all passed");
  });

  it("has a pass rate over the graded results only", () => {
    expect(passRate({ passed: 3, failed: 1, judge_error: 0 })).toBe(0.75);
    expect(passRate({ passed: 0, failed: 0, judge_error: 0 })).toBeNull();
  });
});

describe("the runs list's pass rate", () => {
  const counts = { passed: 2, failed: 0, judge_error: 0, skipped: 4, deferred: 0 };
  it("a cancelled run whose two graded results passed says of how many, not a clean 100%", () => {
    expect(passRateText({ status: "cancelled", counts })).toBe(
      "100% of 2 graded (cancelled, 4 skipped)",
    );
  });
  it("a completed run with budget skips says so; a clean run is a bare rate", () => {
    expect(passRateText({ status: "completed", counts })).toBe("100% of 2 graded (4 skipped)");
    expect(
      passRateText({ status: "completed", counts: { ...counts, failed: 1, skipped: 0 } }),
    ).toBe("67%");
    expect(passRateText({ status: "cancelled", counts: { ...counts, passed: 0 } })).toBe(
      "— (cancelled)",
    );
  });
});
