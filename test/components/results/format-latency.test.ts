import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { formatLatency } from "../../../components/results/format";
import {
  parseTableQuery,
  toResultRowView,
  type ResultRowView,
} from "../../../components/results/results-query";
import { ResultsTable } from "../../../components/results/results-table";

// A dashboard walk: a deferred result (its judge's key missing) read "Latency 0 ms" on its page and
// "0 ms" in the run's table, for a call never made.

describe("a result's latency", () => {
  it("reads '—' when no judge call was made: deferred, or skipped before any call", () => {
    expect(formatLatency({ status: "deferred", judgeCalls: 0, latencyMs: 0 })).toBe("—");
    expect(formatLatency({ status: "skipped", judgeCalls: 0, latencyMs: 2 })).toBe("—");
  });

  it("reads its time when calls were made, a skip part-way through included", () => {
    expect(formatLatency({ status: "passed", judgeCalls: 1, latencyMs: 412 })).toBe("412 ms");
    expect(formatLatency({ status: "skipped", judgeCalls: 2, latencyMs: 1500 })).toBe("1.5 s");
    // Verdicts all reused from the judge cache: no request sent, yet graded, in real time.
    expect(formatLatency({ status: "passed", judgeCalls: 0, latencyMs: 3 })).toBe("3 ms");
  });

  it("the run's table reads '—' in a deferred row's Latency cell", () => {
    const row: ResultRowView = {
      resultKey: "k",
      name: "keyless judge [model=nokey:small]",
      status: "deferred",
      vacuous: false,
      score: null,
      threshold: 0.7,
      reason: "deferred: no key",
      costUsd: 0,
      judgeCalls: 0,
      latencyMs: 0,
      comparison: null,
      decision: null,
      scale: null,
    };
    const rows = [toResultRowView(row)];
    const html = renderToStaticMarkup(
      createElement(ResultsTable, {
        runId: "r1",
        query: parseTableQuery({}),
        page: { firstIndex: 0, total: 1, rows, nextCursor: null, prevCursor: null },
      }),
    );
    const cell = /data-testid="result-latency-cell">(.*?)<\/td>/.exec(html)![1];
    expect(cell).toBe("—");
  });
});
