import { describe, expect, it } from "vitest";
import { emptyResultsText, refreshDelay } from "../../../components/results/live-landed";

// The run page's table and heatmap follow the live snapshot (a new user's
// walk: 16 results landed while the table said "No results match. Results
// appear here as they are graded.", and 83 of 600 in the header beside
// "Rows 1–14 of 72").

describe("when the table and heatmap refresh", () => {
  it("at once for the first results, then whenever the results done changed, at most every 1.5 s", () => {
    let last = { done: 0, at: 0 };
    expect(refreshDelay(last, 16, 10_000, 1500)).toBe(0);
    last = { done: 16, at: 10_000 };
    // Nothing new: no refresh.
    expect(refreshDelay(last, 16, 10_500, 1500)).toBeNull();
    // New results half a second later: refreshed one second on, not dropped.
    expect(refreshDelay(last, 20, 10_500, 1500)).toBe(1000);
    expect(refreshDelay(last, 83, 12_000, 1500)).toBe(0);
  });

  it("also when the count went down (a result replaced, a re-run), not only up", () => {
    expect(refreshDelay({ done: 10, at: 0 }, 9, 5000, 1500)).toBe(0);
  });
});

describe("the empty results table", () => {
  it("says results are on their way, not 'No results match', while the snapshot counts some and the refresh is pending", () => {
    const text = emptyResultsText({ filtered: false, cell: false, landed: 16 });
    expect(text).not.toContain("No results match");
    expect(text).toBe("16 results have landed; loading them…");
  });

  it("says 'No results yet', not 'No results match', for a queued run with no filter", () => {
    expect(emptyResultsText({ filtered: false, cell: false, landed: 0 })).toBe(
      "No results yet. They appear here as they are graded.",
    );
  });

  it("says 'No results match' only when a filter leaves nothing", () => {
    expect(emptyResultsText({ filtered: true, cell: false, landed: 16 })).toBe(
      "No results match. Clear the filters to see every result.",
    );
    expect(emptyResultsText({ filtered: false, cell: true, landed: 0 })).toBe(
      "No results match. Clear the filters to see every result.",
    );
  });
});
