import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { beforeAll, describe, expect, it } from "vitest";
import { RunComparison } from "../../components/results/run-comparison";
import { trendChartOf } from "../../components/results/score-trend-series";
import type { CellCoordinates, EvalResult } from "../../lib/engine/results/report";
import { createRunQueries } from "../../lib/store/run-queries";
import { createRunViews } from "../../lib/store/run-views";
import { cellResult, storeResults } from "../support/stored-run";
import { useTestDatabase } from "../support/test-database";

// The History page lists a run's cells in the suite's order, as the CLI, the run page and the CSV
// do (eval_results.suite_order): the trend charts' legends, the eval cards, and the comparison's
// rows of equal change. "zulu lookups" (line 3) grades the items q2, zeta, alpha, q10 in that file
// order; "answers" (line 10) the judge models [claude-sonnet-4-6, claude-haiku-4-5] as listed.

const db = useTestDatabase();
const SUITE = { name: "history-order.yaml", yaml: "evals: [] # history order" };

function result(input: {
  evalName: string;
  line: number;
  cell: CellCoordinates;
  cellIndex: number;
  passed: boolean;
}): EvalResult {
  return {
    ...cellResult({ ...input, status: input.passed ? "passed" : "failed" }),
    cellIndex: input.cellIndex,
    location: { file: "history-order.yaml", line: input.line, column: 5 },
  };
}

/** Every cell of the suite, stored in the order they finished (the reverse of the planned one). */
function run(passed: boolean): EvalResult[] {
  const items = ["q2", "zeta", "alpha", "q10"].map((item, i) =>
    result({ evalName: "zulu lookups", line: 3, cell: { item }, cellIndex: i, passed }),
  );
  const models = ["claude-sonnet-4-6", "claude-haiku-4-5"].map((model, i) =>
    result({ evalName: "answers", line: 10, cell: { model }, cellIndex: i, passed }),
  );
  return [...items, ...models].reverse();
}

const runs: Record<"base" | "head", string> = { base: "", head: "" };
beforeAll(async () => {
  runs.base = await storeResults({ prisma: db.prisma, results: run(true), suite: SUITE });
  runs.head = await storeResults({ prisma: db.prisma, results: run(false), suite: SUITE });
  await db.prisma.run.update({
    where: { id: runs.base },
    data: { createdAt: new Date("2026-01-01T10:00:00Z") },
  });
  await db.prisma.run.update({
    where: { id: runs.head },
    data: { createdAt: new Date("2026-01-02T10:00:00Z") },
  });
});

describe("the History page's order", () => {
  it("lists the eval cards in the suite's order, not alphabetically", async () => {
    expect(await createRunViews(db.prisma).evalNames(runs.head)).toEqual([
      "zulu lookups",
      "answers",
    ]);
  });

  it("lists a trend chart's cells in the suite's order, in the legend", async () => {
    const queries = createRunQueries(db.prisma);
    const trend = async (evalName: string) =>
      trendChartOf(await queries.evalTrend({ suiteName: SUITE.name, evalName, limit: 20 }));
    const lookups = await trend("zulu lookups");
    expect(lookups.series.map((s) => s.label)).toEqual([
      "zulu lookups [item=q2]",
      "zulu lookups [item=zeta]",
      "zulu lookups [item=alpha]",
      "zulu lookups [item=q10]",
    ]);
    // Oldest run first, each cell's score in its series.
    expect(lookups.rows.map((r) => r[lookups.series[0]!.key])).toEqual([0.9, 0.2]);
    expect((await trend("answers")).series.map((s) => s.label)).toEqual([
      "[model=claude-sonnet-4-6]",
      "[model=claude-haiku-4-5]",
    ]);
  });

  it("lists the comparison's rows of equal change in the suite's order", async () => {
    const comparison = await createRunViews(db.prisma).compareRuns({
      baseRunId: runs.base,
      headRunId: runs.head,
      maxDrop: 0.05,
    });
    const expected = [
      "zulu lookups [item=q2]",
      "zulu lookups [item=zeta]",
      "zulu lookups [item=alpha]",
      "zulu lookups [item=q10]",
      "answers [model=claude-sonnet-4-6]",
      "answers [model=claude-haiku-4-5]",
    ];
    expect(comparison!.deltas.map((d) => d.name)).toEqual(expected);
    const html = renderToStaticMarkup(
      createElement(RunComparison, { comparison: comparison!, headRunId: runs.head }),
    );
    const shown = html
      .split('data-testid="comparison-row"')
      .slice(1)
      .map((row) => expected.find((name) => row.includes(name)));
    expect(shown).toEqual(expected);
  });
});
