import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { matrixBars } from "../../../components/results/matrix-bars";
import {
  cellLabel,
  MatrixHeatmap,
  type MatrixCellView,
} from "../../../components/results/matrix-heatmap";

// Cells kept without their place in the suite (figures of older versions): the bar chart lists
// them in the heatmap's order (judge model, then prompt index, numerically), whatever order the
// store returns them in. Cells with their place: test/store/matrix-columns.test.ts.

const cell = (model: string | null, promptIndex: number | null): MatrixCellView => ({
  model,
  promptIndex,
  results: 2,
  passed: 1,
  failed: 1,
  judge_error: 0,
  meanScore: 0.5,
});
const cells = [
  cell("sonnet", 10),
  cell("haiku", 2),
  cell("sonnet", 2),
  cell("haiku", 10),
  cell(null, 1),
  cell("haiku", 1),
];
const expected = [
  "(judges as configured) · prompt #1",
  "haiku · prompt #1",
  "haiku · prompt #2",
  "haiku · prompt #10",
  "sonnet · prompt #2",
  "sonnet · prompt #10",
];

function heatmapOrder(input: MatrixCellView[]): string[] {
  const html = renderToStaticMarkup(createElement(MatrixHeatmap, { runId: "r1", cells: input }));
  return [...html.matchAll(/data-model="([^"]*)" data-prompt="([^"]*)"/g)].map(
    ([, model, prompt]) =>
      cellLabel({ model: model || null, promptIndex: prompt === "" ? null : Number(prompt) }),
  );
}

describe("the matrix cells' order", () => {
  it("is judge model, then prompt index numerically, in the bars", () => {
    expect(matrixBars("r1", cells).map((b) => b.label)).toEqual(expected);
  });

  it("is the same in the bars and the heatmap, and does not change with the order the cells come in", () => {
    for (const input of [
      cells,
      [...cells].reverse(),
      [cells[3]!, cells[0]!, cells[5]!, cells[1]!, cells[4]!, cells[2]!],
    ]) {
      expect(matrixBars("r1", input).map((b) => b.label)).toEqual(heatmapOrder(input));
      expect(matrixBars("r1", input).map((b) => b.label)).toEqual(expected);
    }
  });
});

describe("the per-cell bars' pass rate", () => {
  it("is written beside each bar: 0% where nothing passed, never an empty row", () => {
    const none = { ...cell("haiku", 1), passed: 0, failed: 2 };
    const ungraded = { ...cell("haiku", 2), passed: 0, failed: 0, results: 2 };
    const bars = matrixBars("run-1", [none, ungraded, cell("haiku", 3)]);
    expect(bars.map((b) => b.passLabel)).toEqual(["0%", "nothing graded", "50%"]);
  });
});
