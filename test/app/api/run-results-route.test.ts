import { afterAll, beforeAll, describe, expect, it } from "vitest";
// A test may call a route handler the way Next does; the rule keeps lib/ and components/ off app/.
// eslint-disable-next-line no-restricted-imports
import { GET } from "../../../app/api/runs/[id]/results/route";
import type { ResultRowsResponse } from "../../../components/results/results-query";
import { createRunStore } from "../../../lib/store/run-store";
import { useTestDatabase } from "../../support/test-database";

// The rows route (one page of a run's results table), called as Next calls
// it, on a real database: keyset pages tile the run under a filter and a sort,
// the total counts what matches, and bad input is a 400, an unknown run a 404.

const db = useTestDatabase();
const ROWS = 1_234;
const STATUSES = ["passed", "failed", "judge_error", "deferred"] as const;
let runId: string;
let emptyRunId: string;
const holder = globalThis as typeof globalThis & { __rubricStudioPrisma?: unknown };

beforeAll(async () => {
  // The route reaches the database as the dashboard does: through DATABASE_URL.
  process.env.DATABASE_URL = db.url;
  const store = createRunStore(db.prisma);
  const version = await store.saveSuiteVersion({ name: "big.yaml", yaml: "evals: []\n" });
  const config = {
    file: "big.yaml",
    toolVersion: "0.1.0",
    judgeModel: "claude-sonnet-4-6",
    concurrency: 4,
    timeoutSeconds: 60,
  };
  runId = await store.createRun({ ...version, startedBy: "cli", config, totalCells: ROWS });
  emptyRunId = await store.createRun({ ...version, startedBy: "cli", config, totalCells: 0 });
  // Row i: status cycles through four, score i / ROWS except every 10th has none, cost grows with i.
  await db.prisma.evalResultRow.createMany({
    data: Array.from({ length: ROWS }, (_, i) => ({
      runId,
      resultKey: `eval ${String(i).padStart(4, "0")}`,
      // The suite's order, the table's default: here the names' order.
      suiteOrder: String(i).padStart(10, "0"),
      evalName: `eval ${String(i).padStart(4, "0")}`,
      name: `eval ${String(i).padStart(4, "0")}${i % 7 === 0 ? " [model=claude-haiku-4-5]" : ""}`,
      cellModel: i % 7 === 0 ? "claude-haiku-4-5" : null,
      status: STATUSES[i % 4]!,
      score: i % 10 === 0 ? null : i / ROWS,
      threshold: 0.5,
      reason: `reason ${i}`,
      costUsd: i / 1000,
      judgeCalls: 1,
      latencyMs: 100 + i,
      data: {},
    })),
  });
}, 60_000);
afterAll(async () => {
  const prisma = holder.__rubricStudioPrisma as { $disconnect(): Promise<void> } | undefined;
  await prisma?.$disconnect();
  delete holder.__rubricStudioPrisma;
  delete process.env.DATABASE_URL;
});

async function get(
  id: string,
  query: string,
): Promise<{
  status: number;
  body: ResultRowsResponse & { error?: { code: string; message: string } };
}> {
  const response = await GET(new Request(`http://127.0.0.1/api/runs/${id}/results?${query}`), {
    params: Promise.resolve({ id }),
  });
  return { status: response.status, body: await response.json() };
}

describe("GET /api/runs/<id>/results", () => {
  it("keeps exactly one matrix cell when the heatmap's drill-down names it, a missing axis meaning none", async () => {
    const cell = await get(runId, "model=claude-haiku-4-5&limit=500");
    expect(cell.status).toBe(200);
    expect(cell.body.total).toBe(177); // rows 0, 7, ..., 1232
    expect(cell.body.rows.every((r) => r.name.endsWith("[model=claude-haiku-4-5]"))).toBe(true);
    // The same model on prompt 1 is another cell, which this run does not have.
    const other = await get(runId, "model=claude-haiku-4-5&prompt=1");
    expect(other.status).toBe(200);
    expect(other.body.total).toBe(0);
    expect((await get(runId, "prompt=0")).status).toBe(400);
  });

  it("pages through every row of a run once, in suite order, with the total", async () => {
    const names: string[] = [];
    let after: string | null = null;
    do {
      const { status, body } = await get(runId, `${after ? `after=${after}&` : ""}limit=500`);
      expect(status).toBe(200);
      expect(body.total).toBe(ROWS);
      expect(body.firstIndex).toBe(names.length);
      names.push(...body.rows.map((r) => r.name));
      after = body.nextCursor;
    } while (after);
    expect(names).toHaveLength(ROWS);
    expect(new Set(names).size).toBe(ROWS);
    expect(names).toEqual([...names].sort());
    // The last page ends with the run's last row, and the page before it ends where it starts.
    const last = await get(runId, `last=1&limit=100`);
    expect(last.body.firstIndex).toBe(ROWS - 100);
    expect(last.body.rows.at(-1)?.name).toBe("eval 1233");
    const before = await get(runId, `before=${last.body.prevCursor}&limit=100`);
    expect(before.body.firstIndex).toBe(ROWS - 200);
    expect(before.body.rows.map((r) => r.name)).toEqual(names.slice(ROWS - 200, ROWS - 100));
  });

  it("sends only what the table shows", async () => {
    const { body } = await get(runId, "limit=1");
    expect(Object.keys(body.rows[0]!).sort()).toEqual([
      "comparison",
      "costUsd",
      "decision",
      "judgeCalls",
      "latencyMs",
      "name",
      "reason",
      "resultKey",
      "scale",
      "score",
      "status",
      "threshold",
      "vacuous",
    ]);
    expect(body.rows[0]).toMatchObject({
      resultKey: "eval 0000",
      status: "passed",
      score: null,
      reason: "reason 0",
      latencyMs: 100,
    });
  });

  it("filters by status and name on the server, and sorts, with nulls last", async () => {
    const failed = await get(runId, "status=failed&limit=500");
    expect(failed.body.total).toBe(Math.ceil((ROWS - 1) / 4));
    expect(new Set(failed.body.rows.map((r) => r.status))).toEqual(new Set(["failed"]));

    const haiku = await get(runId, `q=${encodeURIComponent("model=claude-haiku")}&limit=500`);
    expect(haiku.body.total).toBe(Math.ceil(ROWS / 7));
    expect(haiku.body.rows.every((r) => r.name.endsWith("[model=claude-haiku-4-5]"))).toBe(true);

    const byScore = await get(runId, "sort=score&dir=desc&limit=3");
    expect(byScore.body.rows.map((r) => r.resultKey)).toEqual([
      "eval 1233",
      "eval 1232",
      "eval 1231",
    ]);
    const tail = await get(runId, `sort=score&dir=desc&last=1&limit=2`);
    expect(tail.body.rows.map((r) => r.score)).toEqual([null, null]);

    // The README's key, `cost`; the old `costUsd` of links already shared sorts the same.
    for (const key of ["cost", "costUsd"]) {
      const costly = await get(runId, `status=judge_error&sort=${key}&dir=desc&limit=2`);
      expect(
        costly.body.rows.map((r) => [r.resultKey, r.status]),
        key,
      ).toEqual([
        ["eval 1230", "judge_error"],
        ["eval 1226", "judge_error"],
      ]);
    }
    const byLatency = await get(runId, "sort=latency&dir=desc&limit=500");
    const latencies = byLatency.body.rows.map((r) => r.latencyMs);
    expect(latencies).toEqual([...latencies].sort((x, y) => y - x));
  });

  it("an unknown sort key is a 400 that lists the keys", async () => {
    const { status, body } = await get(runId, "sort=bogus");
    expect(status).toBe(400);
    expect(body.error?.message).toBe(
      "sort: must be one of order, name, status, score, cost, latency",
    );
  });

  it("an offset (paging before cursors) is a 400 that says how to page", async () => {
    const { status, body } = await get(runId, "offset=100");
    expect(status).toBe(400);
    expect(body.error?.message).toBe(
      "offset: paging is by cursor: after=<nextCursor>, before=<prevCursor> or last=1",
    );
  });

  it("answers an empty run with no rows, and an unknown run with a 404", async () => {
    expect(await get(emptyRunId, "")).toEqual({
      status: 200,
      body: { firstIndex: 0, total: 0, rows: [], nextCursor: null, prevCursor: null },
    });
    const unknown = await get("00000000-0000-4000-8000-000000000000", "");
    expect(unknown.status).toBe(404);
    expect(unknown.body.error?.code).toBe("not_found");
    for (const id of ["not-a-run", "%E0%A4%A", "\u0000"])
      expect((await get(id, "")).status, id).toBe(404);
  });

  it("refuses bad parameters with a 400 that names them", async () => {
    // A NUL cannot reach Postgres text: it was a 500 ("invalid byte sequence").
    for (const query of [
      "limit=501",
      "limit=0",
      "after=not%20a%20cursor",
      "last=yes",
      "sort=reason",
      "status=great",
      "dir=up",
      "q=%00",
      "q=a%00b",
      "model=%00",
    ]) {
      const { status, body } = await get(runId, query);
      expect(status, query).toBe(400);
      expect(body.error?.message, query).toMatch(new RegExp(query.split("=")[0]!));
    }
    // A cursor made for another sort (or edited) is refused, not read as another page.
    const byName = await get(runId, "limit=5");
    const other = await get(runId, `sort=score&after=${byName.body.nextCursor}`);
    expect(other.status).toBe(400);
    expect(other.body.error?.message).toMatch(/cursor/);
  });
});
