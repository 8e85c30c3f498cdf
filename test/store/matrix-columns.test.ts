import { describe, expect, it } from "vitest";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { matrixBars } from "../../components/results/matrix-bars";
import { cellLabel, MatrixHeatmap, sortCells } from "../../components/results/matrix-heatmap";
import type { CellCoordinates, EvalResult } from "../../lib/engine/results/report";
import { keptFiguresOf, storeRunFigures } from "../../lib/store/run-figures";
import { createRunViews } from "../../lib/store/run-views";
import { cellResult, storeResults } from "../support/stored-run";
import { useTestDatabase } from "../support/test-database";

// The run page's heatmap columns are what varies: a grid of prompts is a
// column per prompt; the items of a dataset are one column, their eval's (a
// dataset of 10,000 items is not 10,000 columns), never "(one prompt)".

const db = useTestDatabase();

const result = (evalName: string, cell: CellCoordinates, status: EvalResult["status"]) =>
  cellResult({ evalName, cell, status });

describe("the heatmap's columns", () => {
  it("are the prompts, and for a dataset's items their eval", async () => {
    const runId = await storeResults({
      prisma: db.prisma,
      results: [
        result("sky", { agent: "haiku", promptIndex: 1, prompt: "Why?" }, "passed"),
        result("sky", { agent: "haiku", promptIndex: 2, prompt: "How?" }, "failed"),
        result("capitals", { agent: "haiku", item: "australia" }, "passed"),
        result("capitals", { agent: "haiku", item: "canada" }, "failed"),
        result("capitals", { agent: "gpt", item: "australia" }, "failed"),
        result("rivers", { agent: "haiku", item: "nile" }, "passed"),
      ],
    });
    // In the suite's order: these results have no line, so by name.
    const cells = sortCells(await createRunViews(db.prisma).matrixCells({ runId }));
    expect(cells.map((c) => [cellLabel(c), c.results, c.passed])).toEqual([
      ["gpt · capitals", 1, 0],
      ["haiku · capitals", 2, 1],
      ["haiku · rivers", 1, 1],
      ["haiku · prompt #1", 1, 1],
      ["haiku · prompt #2", 1, 0],
    ]);
  });
});

describe("the heatmap's and the bars' order", () => {
  it("is the suite's: judge models and prompts as the matrix lists them, the evals as written", async () => {
    // models: [claude-sonnet-4-6, claude-haiku-4-5] × prompts: [why, how] at line 3, planned
    // sonnet #1, sonnet #2, haiku #1, haiku #2; then a dataset eval at line 12. Stored as they finished.
    const planned = (model: string, promptIndex: number, cellIndex: number): EvalResult => ({
      ...result("sky", { model, promptIndex, prompt: `p${promptIndex}` }, "passed"),
      location: { file: "suite.yaml", line: 3, column: 5 },
      cellIndex,
    });
    const runId = await storeResults({
      prisma: db.prisma,
      results: [
        {
          ...result("capitals", { model: "claude-haiku-4-5", item: "a" }, "passed"),
          location: { file: "suite.yaml", line: 12, column: 5 },
          cellIndex: 1,
        },
        planned("claude-haiku-4-5", 2, 3),
        planned("claude-sonnet-4-6", 2, 1),
        planned("claude-haiku-4-5", 1, 2),
        planned("claude-sonnet-4-6", 1, 0),
        {
          ...result("capitals", { model: "claude-sonnet-4-6", item: "a" }, "failed"),
          location: { file: "suite.yaml", line: 12, column: 5 },
          cellIndex: 0,
        },
      ],
    });
    const cells = await createRunViews(db.prisma).matrixCells({ runId });
    const expected = [
      "claude-sonnet-4-6 · prompt #1",
      "claude-sonnet-4-6 · prompt #2",
      "claude-haiku-4-5 · prompt #1",
      "claude-haiku-4-5 · prompt #2",
      "claude-sonnet-4-6 · capitals",
      "claude-haiku-4-5 · capitals",
    ];
    expect(sortCells(cells).map(cellLabel)).toEqual(expected);
    // Once the run finishes, its kept figures keep each cell's place.
    await storeRunFigures(db.prisma, { runId });
    await db.prisma.run.update({ where: { id: runId }, data: { finishedAt: new Date() } });
    const kept = (await keptFiguresOf(db.prisma, runId))!.cells;
    expect(kept.every((c) => c.order !== undefined)).toBe(true);
    expect(sortCells([...kept].reverse()).map(cellLabel)).toEqual(expected);
    expect(matrixBars(runId, [...cells].reverse()).map((b) => b.label)).toEqual(expected);
    const html = renderToStaticMarkup(
      createElement(MatrixHeatmap, { runId, cells: [...cells].reverse() }),
    );
    const texts = (tag: string) =>
      [...html.matchAll(new RegExp(`<${tag}[^>]*>([^<]*)</${tag}>`, "g"))].map(([, t]) => t);
    expect(texts("th")).toEqual([
      "Judge model \\ prompt or eval",
      "prompt #1",
      "prompt #2",
      "capitals",
      "claude-sonnet-4-6",
      "claude-haiku-4-5",
    ]);
  });
});
