import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ScoreCell } from "../../../components/results/results-table";
import { toResultRowView, type ResultRowView } from "../../../components/results/results-query";

// A letter-scale eval's threshold reads the same on the run page's table as
// on its result page: "C", not "0.70".

const text = (html: string) => html.replace(/<[^>]+>/g, "");
const row = (over: Partial<ResultRowView>): ResultRowView => ({
  resultKey: "k",
  name: "tone",
  status: "passed",
  vacuous: false,
  score: 0.5,
  threshold: 0.7,
  reason: "",
  costUsd: 0,
  judgeCalls: 1,
  latencyMs: 1,
  comparison: null,
  decision: null,
  scale: { kind: "letter" },
  ...over,
});
const cell = (r: ResultRowView) =>
  text(renderToStaticMarkup(createElement(ScoreCell, { row: toResultRowView(r) })));

describe("the results table's threshold on the rubric's scale", () => {
  it("shows a letter rubric's score and threshold as letters", () => {
    expect(cell(row({ score: 0.5, status: "failed" }))).toBe("F / C");
    expect(cell(row({ score: 0.92 }))).toBe("A / C");
  });

  it("shows a deferred letter result's threshold as C, not 0.70", () => {
    const shown = cell(row({ score: null, status: "deferred" }));
    expect(shown).toBe("— / C");
    expect(shown).not.toContain("0.70");
  });

  it("shows a likert rubric's threshold on its points", () => {
    expect(
      cell(row({ score: 0.75, threshold: 0.5, scale: { kind: "likert", min: 1, max: 5 } })),
    ).toBe("4.0/5 / 3.0/5");
  });

  it("keeps 0..1 for results stored without a scale", () => {
    expect(cell(row({ scale: null }))).toBe("0.50 / 0.70");
  });
});
