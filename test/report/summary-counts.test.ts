import { describe, expect, it } from "vitest";
import type { EvalResult } from "../../lib/engine/results/report";
import { prettyReporter } from "../../lib/report/pretty";
import { tapReporter } from "../../lib/report/tap";
import { buildSampleReport, sampleResults } from "../support/sample-report";

// The summary line writes every count the same way: `10,000 cells: 10,000 passed`, never
// `10,000 cells: 10000 passed`.

describe("the summary's counts", () => {
  it("all carry thousands separators, in pretty and in TAP", () => {
    const template = sampleResults()[0]!;
    const result = (n: number, status: EvalResult["status"]): EvalResult => ({
      ...template,
      id: `r${n}`,
      name: `r${n}`,
      status,
    });
    const results = [
      ...Array.from({ length: 1_200 }, (_, n) => result(n, "passed")),
      ...Array.from({ length: 1_100 }, (_, n) => result(1_200 + n, "failed")),
    ];
    const report = buildSampleReport({ results });
    const pretty = prettyReporter.render(report, { color: false });
    expect(pretty).toMatch(/2,300 cells: 1,200 passed, 1,100 failed, 0 deferred/);
    const tap = tapReporter.render(report, { color: false });
    expect(tap).toContain("# 2,300 cells: 1,200 passed (0 vacuous), 1,100 failed, 0 deferred");
  });
});
