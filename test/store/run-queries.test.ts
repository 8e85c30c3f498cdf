import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EvalResult, EvalStatus } from "../../lib/engine/results/report";
import { createPrismaClient, type PrismaClient } from "../../lib/store/connection";
import {
  createRunQueries,
  type ResultRow,
  type ResultSort,
  type RunQueries,
} from "../../lib/store/run-queries";
import { createRunStore, type RunStore } from "../../lib/store/run-store";
import { sampleResults } from "../support/sample-report";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

// The dashboard's run-history reads, on data stored the way a run stores it
// (createRunStore().saveResult): the trend of one eval across a suite's runs,
// a run's results table (filter, search, sort, pages) and its per-model figures.

const SONNET = "claude-sonnet-4-5";
const HAIKU = "claude-haiku-4-5";
const CONFIG = {
  file: "examples/rubric-eval.yml",
  toolVersion: "0.1.0",
  judgeModel: SONNET,
  concurrency: 4,
  timeoutSeconds: 60,
};

let db: TestDatabase;
let prisma: PrismaClient;
let store: RunStore;
let queries: RunQueries;

beforeAll(async () => {
  db = await createTestDatabase();
  prisma = createPrismaClient(db.url);
  store = createRunStore(prisma);
  queries = createRunQueries(prisma);
});
afterAll(async () => {
  await prisma?.$disconnect();
  await db?.close();
});

/** A run of `suite` holding `results`, created at `at` (so that "newest first" is well defined). */
async function storeRun(input: {
  suite: string;
  at: string;
  results: EvalResult[];
  status?: "running" | "completed";
}): Promise<string> {
  const version = await store.saveSuiteVersion({ name: input.suite, yaml: `# ${input.suite}\n` });
  const runId = await store.createRun({
    ...version,
    startedBy: "cli",
    config: CONFIG,
    totalCells: input.results.length,
  });
  for (const result of input.results) await store.saveResult(runId, result);
  await prisma.run.update({
    where: { id: runId },
    data: { createdAt: new Date(input.at), status: input.status ?? "completed" },
  });
  return runId;
}

/** A cell of the sample's "summary quality" matrix eval, graded by `model`. */
function summaryCell(model: string, score: number | null, status: EvalStatus): EvalResult {
  const template = sampleResults().find((r) => r.eval === "summary quality")!;
  return {
    ...template,
    id: `summary quality [model=${model}, prompt=1]`,
    name: `summary quality (${model}, prompt 1)`,
    cell: { ...template.cell, model },
    judge: { ...template.judge, models: [model] },
    status,
    score,
  };
}

describe("evalTrend: one eval across a suite's runs", () => {
  const runs: Record<string, string> = {};
  beforeAll(async () => {
    const others = sampleResults().filter((r) => r.eval !== "summary quality");
    runs.oldest = await storeRun({
      suite: "release-notes",
      at: "2026-01-01T10:00:00Z",
      results: [...others, summaryCell(SONNET, 0.6, "failed"), summaryCell(HAIKU, null, "skipped")],
    });
    runs.second = await storeRun({
      suite: "release-notes",
      at: "2026-01-02T10:00:00Z",
      results: [summaryCell(HAIKU, 0.5, "failed"), summaryCell(SONNET, 0.7, "passed")],
    });
    // A filtered run that did not grade the eval: no point, and it does not use up the limit.
    runs.filtered = await storeRun({
      suite: "release-notes",
      at: "2026-01-03T10:00:00Z",
      results: others.slice(0, 2),
    });
    runs.newest = await storeRun({
      suite: "release-notes",
      at: "2026-01-04T10:00:00Z",
      status: "running",
      results: [summaryCell(SONNET, 0.9, "passed"), summaryCell(HAIKU, 0.75, "passed")],
    });
    // Another suite with an eval of the same name, run later still: never part of this trend.
    runs.otherSuite = await storeRun({
      suite: "other-suite",
      at: "2026-01-05T10:00:00Z",
      results: [summaryCell(SONNET, 0.1, "failed")],
    });
  });

  it("gives every cell of the eval, newest run first, with the run's status", async () => {
    const points = await queries.evalTrend({
      suiteName: "release-notes",
      evalName: "summary quality",
      limit: 500,
    });
    expect(points.map((p) => [p.runId, p.cellModel, p.score, p.status])).toEqual([
      [runs.newest, HAIKU, 0.75, "passed"],
      [runs.newest, SONNET, 0.9, "passed"],
      [runs.second, HAIKU, 0.5, "failed"],
      [runs.second, SONNET, 0.7, "passed"],
      [runs.oldest, HAIKU, null, "skipped"],
      [runs.oldest, SONNET, 0.6, "failed"],
    ]);
    expect(points[0]).toMatchObject({
      runStatus: "running",
      runCreatedAt: new Date("2026-01-04T10:00:00Z"),
      judgeModel: HAIKU,
      threshold: 0.7,
      cellPrompt: 1,
    });
    expect(points.at(-1)!.runStatus).toBe("completed");
  });

  it("follows one cell when given its result key", async () => {
    const points = await queries.evalTrend({
      suiteName: "release-notes",
      evalName: "summary quality",
      resultKey: `summary quality [model=${SONNET}, prompt=1]`,
      limit: 500,
    });
    expect(points.map((p) => p.score)).toEqual([0.9, 0.7, 0.6]);
    expect(points.every((p) => p.name === `summary quality (${SONNET}, prompt 1)`)).toBe(true);
  });

  it("limits by runs that graded the eval, counting a run's cells as one", async () => {
    const points = await queries.evalTrend({
      suiteName: "release-notes",
      evalName: "summary quality",
      limit: 2,
    });
    expect([...new Set(points.map((p) => p.runId))]).toEqual([runs.newest, runs.second]);
    expect(points).toHaveLength(4);
  });

  it("is empty for an eval or suite with no results", async () => {
    expect(
      await queries.evalTrend({ suiteName: "release-notes", evalName: "no such eval", limit: 10 }),
    ).toEqual([]);
    expect(
      await queries.evalTrend({
        suiteName: "no-such-suite",
        evalName: "summary quality",
        limit: 10,
      }),
    ).toEqual([]);
    expect(
      await queries.evalTrend({
        suiteName: "release-notes",
        evalName: "summary quality",
        limit: 0,
      }),
    ).toEqual([]);
  });
});

describe("runResultsPage: a run's results table", () => {
  const COPIES = 5;
  let runId: string;
  let allIds: string[];
  beforeAll(async () => {
    // Five copies of each sample result (equal scores and costs: the ties that
    // only the id tie-breaker orders), and one whose name holds LIKE wildcards.
    const results = sampleResults().flatMap((r) =>
      Array.from({ length: COPIES }, (_, i) => ({
        ...r,
        id: `${r.id} #${i}`,
        name: `${r.name} #${i}`,
      })),
    );
    const wildcard = {
      ...sampleResults()[1]!,
      id: "discount",
      eval: "discount",
      name: "50% off: discount_math",
      status: "failed" as const,
      score: 0.4,
    };
    runId = await storeRun({
      suite: "table-suite",
      at: "2026-02-01T10:00:00Z",
      results: [...results, wildcard],
    });
    // Another run's results never leak into this run's table.
    await storeRun({ suite: "table-suite", at: "2026-02-02T10:00:00Z", results: sampleResults() });
    allIds = (await prisma.evalResultRow.findMany({ where: { runId }, select: { id: true } })).map(
      (r) => r.id,
    );
    expect(allIds).toHaveLength(8 * COPIES + 1);
  });

  async function walk(input: {
    sort?: ResultSort;
    pageSize: number;
    by: "cursor" | "backward";
    status?: EvalStatus[];
    search?: string;
  }): Promise<{ rows: ResultRow[]; pages: number; totals: number[] }> {
    const pages: ResultRow[][] = [];
    const totals: number[] = [];
    let cursor: string | undefined;
    const backward = input.by === "backward";
    for (;;) {
      const page = await queries.runResultsPage({
        runId,
        pageSize: input.pageSize,
        ...(input.sort ? { sort: input.sort } : {}),
        ...(input.status ? { status: input.status } : {}),
        ...(input.search ? { search: input.search } : {}),
        // Forwards from the first page by each page's next cursor; backwards from the last
        // page by each page's previous cursor.
        ...(cursor ? (backward ? { before: cursor } : { cursor }) : backward ? { last: true } : {}),
      });
      pages.push(page.rows);
      totals.push(page.total);
      // Each page knows where it starts, without counting the rows before it.
      expect(page.firstIndex).toBe(
        backward ? page.total - pages.flat().length : (pages.length - 1) * input.pageSize,
      );
      const next = backward ? page.prevCursor : page.nextCursor;
      if (!next) {
        const rows = (backward ? pages.reverse() : pages).flat();
        return { rows, pages: pages.length, totals };
      }
      expect(page.rows).toHaveLength(input.pageSize);
      cursor = next;
    }
  }

  const sorts: ResultSort[] = [
    { by: "score", direction: "desc" },
    { by: "score", direction: "asc" },
    { by: "name", direction: "asc" },
    { by: "name", direction: "desc" },
    { by: "costUsd", direction: "desc" },
    { by: "latencyMs", direction: "asc" },
    { by: "status", direction: "asc" },
    { by: "createdAt", direction: "desc" },
  ];

  it.each(sorts)(
    "pages by $by $direction tile the results with no gap or repeat, forwards and backwards alike",
    async (sort) => {
      const byCursor = await walk({ sort, pageSize: 7, by: "cursor" });
      const backward = await walk({ sort, pageSize: 7, by: "backward" });
      expect(byCursor.pages).toBe(6);
      expect(byCursor.totals.every((t) => t === allIds.length)).toBe(true);
      expect(byCursor.rows.map((r) => r.id).sort()).toEqual([...allIds].sort());
      expect(backward.rows.map((r) => r.id)).toEqual(byCursor.rows.map((r) => r.id));
    },
  );

  it("sorts by score with ungraded results last in both directions, ties broken by id", async () => {
    for (const direction of ["desc", "asc"] as const) {
      const { rows } = await walk({ sort: { by: "score", direction }, pageSize: 10, by: "cursor" });
      const sign = direction === "asc" ? 1 : -1;
      const byId = (a: ResultRow, b: ResultRow) => sign * (a.id < b.id ? -1 : 1);
      const expected = [...rows].sort((a, b) => {
        if (a.score === null || b.score === null)
          return a.score === b.score ? byId(a, b) : a.score === null ? 1 : -1;
        return a.score !== b.score ? sign * (a.score - b.score) : byId(a, b);
      });
      expect(rows.map((r) => r.id)).toEqual(expected.map((r) => r.id));
      const firstNull = rows.findIndex((r) => r.score === null);
      expect(firstNull).toBe(rows.length - 4 * COPIES); // vacuous, deferred, judge error, skipped cell
      expect(rows.slice(firstNull).every((r) => r.score === null)).toBe(true);
    }
    const top = await queries.runResultsPage({
      runId,
      sort: { by: "score", direction: "desc" },
      pageSize: 3,
    });
    expect(top.rows.map((r) => [r.name.replace(/ #\d$/, ""), r.score])).toEqual(
      Array(3).fill(["refuses the destructive request", 0.92]),
    );
  });

  it("filters by status, keeping the total to what matches", async () => {
    const failed = await queries.runResultsPage({ runId, status: "failed", pageSize: 50 });
    expect(failed.total).toBe(COPIES + 1);
    expect(failed.rows.every((r) => r.status === "failed")).toBe(true);
    const problems = await walk({
      status: ["judge_error", "deferred", "skipped"],
      pageSize: 4,
      by: "cursor",
    });
    expect(problems.totals.every((t) => t === 3 * COPIES)).toBe(true);
    expect(new Set(problems.rows.map((r) => r.status))).toEqual(
      new Set(["judge_error", "deferred", "skipped"]),
    );
    expect(problems.rows).toHaveLength(3 * COPIES);
    expect((await queries.runResultsPage({ runId, status: [], pageSize: 10 })).total).toBe(0);
  });

  it("pages a filter by keyset: the first page to the last and back lists each match once, in order", async () => {
    const status: EvalStatus[] = ["passed", "failed"];
    // What matches, in the table's order: the whole run in one page, filtered here.
    const whole = await queries.runResultsPage({ runId, pageSize: 500 });
    expect(whole.rows).toHaveLength(allIds.length);
    const expected = whole.rows.filter((r) => status.includes(r.status)).map((r) => r.id);
    expect(expected.length).toBeGreaterThan(9);
    for (const by of ["cursor", "backward"] as const) {
      const walked = await walk({ status, pageSize: 3, by });
      expect(walked.pages).toBe(Math.ceil(expected.length / 3));
      expect(walked.rows.map((r) => r.id)).toEqual(expected);
    }
  });

  it("searches names case-insensitively, taking % and _ literally", async () => {
    const summary = await queries.runResultsPage({
      runId,
      search: "  SUMMARY Quality ",
      pageSize: 50,
    });
    expect(summary.total).toBe(2 * COPIES);
    expect(summary.rows.every((r) => r.evalName === "summary quality")).toBe(true);
    for (const literal of ["%", "_", "50% off"]) {
      const page = await queries.runResultsPage({ runId, search: literal, pageSize: 50 });
      expect(page.rows.map((r) => r.name)).toEqual(["50% off: discount_math"]);
    }
    const both = await queries.runResultsPage({
      runId,
      search: "grounded",
      status: ["failed", "judge_error"],
      sort: { by: "name", direction: "asc" },
      pageSize: 50,
    });
    expect(both.total).toBe(COPIES);
    expect(both.rows.map((r) => r.name)).toEqual(
      Array.from({ length: COPIES }, (_, i) => `grounded answer with citations #${i}`),
    );
  });

  it("shows what the table needs of each row", async () => {
    const page = await queries.runResultsPage({
      runId,
      search: "refuses the destructive request #3",
      pageSize: 5,
    });
    expect(page.rows).toEqual([
      expect.objectContaining({
        resultKey: "refuses the destructive request #3",
        evalName: "refuses the destructive request",
        status: "passed",
        score: 0.92,
        threshold: 0.6,
        reason: "scored 0.92, at or above the threshold 0.60",
        costUsd: 0.0021,
        judgeCalls: 1,
        latencyMs: 1840,
        judgeModel: SONNET,
        cellModel: null,
        vacuous: false,
      }),
    ]);
    expect(page.nextCursor).toBeNull();
  });

  it("refuses a cursor that is malformed or was made for another sort", async () => {
    const first = await queries.runResultsPage({
      runId,
      sort: { by: "score", direction: "desc" },
      pageSize: 5,
    });
    await expect(
      queries.runResultsPage({
        runId,
        sort: { by: "name", direction: "asc" },
        pageSize: 5,
        cursor: first.nextCursor!,
      }),
    ).rejects.toThrow(RangeError);
    await expect(
      queries.runResultsPage({ runId, pageSize: 5, cursor: "not-a-cursor" }),
    ).rejects.toThrow(RangeError);
  });

  it("is empty for an unknown or malformed run id", async () => {
    const empty = { rows: [], total: 0, firstIndex: 0, nextCursor: null, prevCursor: null };
    expect(await queries.runResultsPage({ runId: randomUUID(), pageSize: 10 })).toEqual(empty);
    expect(
      await queries.runResultsPage({ runId: "latest'; DROP TABLE runs; --", pageSize: 10 }),
    ).toEqual(empty);
  });
});

describe("runModelSummary: a run per judge model", () => {
  it("counts outcomes, averages the scores that exist and adds up cost and calls", async () => {
    const runId = await storeRun({
      suite: "summary-suite",
      at: "2026-03-01T10:00:00Z",
      results: sampleResults(),
    });
    const summary = await queries.runModelSummary({ runId });
    expect(summary).toEqual([
      {
        judgeModel: HAIKU,
        results: 1,
        passed: 0,
        failed: 0,
        judgeErrors: 0,
        deferred: 0,
        skipped: 1,
        meanScore: null,
        costUsd: 0,
        judgeCalls: 0,
      },
      {
        judgeModel: SONNET,
        results: 7,
        passed: 4,
        failed: 1,
        judgeErrors: 1,
        deferred: 1,
        skipped: 0,
        meanScore: expect.closeTo((0.92 + 0.3 + 0.8 + 0.86) / 4, 10),
        costUsd: expect.closeTo(0.0278, 10),
        judgeCalls: 11,
      },
    ]);
    expect(await queries.runModelSummary({ runId: randomUUID() })).toEqual([]);
  });
});
