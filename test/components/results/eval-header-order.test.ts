import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { parseTableQuery, type ResultRowView } from "../../../components/results/results-query";
import { ResultsTable } from "../../../components/results/results-table";

// The results table's Eval header says the order its rows are in: a run opens in suite order
// (i1, i2 … i10), and its header read "Eval ▲ A–Z", as if the rows were sorted by name.

const row = (i: number): ResultRowView => ({
  resultKey: `k${i}`,
  name: `i${i}`,
  status: "passed",
  vacuous: false,
  score: 0.9,
  threshold: 0.7,
  reason: "",
  costUsd: 0.001,
  judgeCalls: 1,
  latencyMs: 100,
  comparison: null,
  decision: null,
  scale: null,
});

function evalHeader(params: Record<string, string>): string {
  const rows = Array.from({ length: 10 }, (_, i) => row(i + 1));
  const html = renderToStaticMarkup(
    createElement(ResultsTable, {
      runId: "r1",
      query: parseTableQuery(params),
      page: { firstIndex: 0, total: rows.length, rows, nextCursor: null, prevCursor: null },
    }),
  );
  const th = /<th[^>]*>(.*?)<\/th>/.exec(html)![1]!;
  return th.replace(/<[^>]+>/g, "").replace(/\s+/g, " ");
}

describe("the results table's Eval header", () => {
  it("says suite order when the rows are in suite order, and offers A–Z as the other sort", () => {
    expect(evalHeader({})).toBe("Eval, suite order ▲ · sort A–Z");
    expect(evalHeader({ dir: "desc" })).toBe("Eval, suite order ▼ · sort A–Z");
  });

  it("says A–Z only when the rows are sorted by name", () => {
    expect(evalHeader({ sort: "name" })).toBe("Eval, A–Z ▲ · suite order");
    expect(evalHeader({ sort: "name", dir: "desc" })).toBe("Eval, Z–A ▼ · suite order");
    // Sorted by another column, the rows are in neither order, and the header names none.
    expect(evalHeader({ sort: "score" })).toBe("Eval · sort A–Z");
  });
});
