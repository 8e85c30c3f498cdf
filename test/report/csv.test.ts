import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import type { EvalResult } from "../../lib/engine/results/report";
import { REPORTERS } from "../../lib/report/registry";
import { buildSampleReport, sampleResults } from "../support/sample-report";

// The csv reporter as a spreadsheet reads it: one row per result, a column
// per criterion score, and hostile cells that neither break the rows nor run
// as formulas.

function rows(text: string): Record<string, string>[] {
  return parse(text, { columns: true }) as Record<string, string>[];
}

describe("the csv reporter", () => {
  it("writes one row per result with its cell, status, score, threshold, cost and each criterion's score", () => {
    const report = buildSampleReport();
    const text = REPORTERS.csv.render(report, { color: false });
    expect(text.endsWith("\r\n")).toBe(true);
    const table = rows(text);
    expect(table).toHaveLength(report.results.length);
    const criteria = [
      ...new Set(report.results.flatMap((r) => r.criteria.map((c) => c.name))),
    ].sort();
    expect(Object.keys(table[0]!).filter((k) => k.startsWith("criterion: "))).toEqual(
      criteria.map((c) => `criterion: ${c}`),
    );
    report.results.forEach((result, i) => {
      const row = table[i]!;
      expect(row).toMatchObject({
        id: result.id,
        eval: result.eval,
        status: result.status,
        threshold: String(Math.round(result.threshold * 1e4) / 1e4),
        model: result.cell?.model ?? "",
      });
      expect(row.score).toBe(
        result.score === null ? "" : String(Math.round(result.score * 1e4) / 1e4),
      );
      expect(Number(row.cost_usd)).toBeCloseTo(result.costUsd, 10);
      for (const c of result.criteria)
        expect(row[`criterion: ${c.name}`]).toBe(
          c.score === null ? "" : String(Math.round(c.score * 1e4) / 1e4),
        );
    });
  });

  it("neutralises formula cells and quotes commas, quotes and line breaks, so every row stays one row", () => {
    const template = sampleResults().find((r) => r.status === "failed") as EvalResult;
    const hostile: [string, string][] = [
      ['=HYPERLINK("http://x","y")', '\'=HYPERLINK("http://x","y")'],
      ["+1+1", "'+1+1"],
      ["-2+3", "'-2+3"],
      ["@SUM(A1)", "'@SUM(A1)"],
      ["\t=1", "'\t=1"],
      ['a, b "quoted"\r\nnext line', 'a, b "quoted"\r\nnext line'],
    ];
    const results = hostile.map(([name], i) => ({
      ...template,
      id: `r${i}`,
      name,
      eval: name,
      reason: name,
      cell: { prompt: name, model: name },
    }));
    const text = REPORTERS.csv.render(buildSampleReport({ results }), { color: false });
    const table = rows(text);
    expect(table).toHaveLength(hostile.length);
    hostile.forEach(([, expected], i) => {
      for (const column of ["name", "eval", "reason", "prompt", "model"])
        expect(table[i]![column], `${column} of row ${i}`).toBe(expected);
    });
    // No field in the file starts with a formula character.
    const fields = (parse(text) as string[][]).flat();
    expect(fields.filter((f) => /^[=+\-@\t\r]/.test(f))).toEqual([]);
  });
});
