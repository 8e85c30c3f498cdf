import { describe, expect, it } from "vitest";
import { cellLabel, sortCells } from "../../components/results/matrix-heatmap";
import type { CellCoordinates, EvalResult } from "../../lib/engine/results/report";
import { createRunViews } from "../../lib/store/run-views";
import { sampleResults } from "../support/sample-report";
import { storeResults } from "../support/stored-run";
import { useTestDatabase } from "../support/test-database";

// The run page's heatmap columns are what varies: a grid of prompts is a
// column per prompt; the items of a dataset are one column, their eval's (a
// dataset of 10,000 items is not 10,000 columns), never "(one prompt)".

const db = useTestDatabase();

function result(evalName: string, cell: CellCoordinates, status: EvalResult["status"]): EvalResult {
  const template = sampleResults().find((r) => r.status === "passed")!;
  const id = `${evalName} [${Object.entries(cell)
    .map(([k, v]) => `${k}=${v}`)
    .join(", ")}]`;
  return {
    ...template,
    id,
    name: id,
    eval: evalName,
    cell,
    status,
    score: status === "passed" ? 0.9 : 0.2,
  };
}

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
    const cells = sortCells(await createRunViews(db.prisma).matrixCells({ runId }));
    expect(cells.map((c) => [cellLabel(c), c.results, c.passed])).toEqual([
      ["gpt · capitals", 1, 0],
      ["haiku · prompt #1", 1, 1],
      ["haiku · prompt #2", 1, 0],
      ["haiku · capitals", 2, 1],
      ["haiku · rivers", 1, 1],
    ]);
  });
});
