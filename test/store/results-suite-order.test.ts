import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EvalResult } from "../../lib/engine/results/report";
import { createPrismaClient, type PrismaClient } from "../../lib/store/connection";
import { createRunQueries } from "../../lib/store/run-queries";
import { createRunStore } from "../../lib/store/run-store";
import { sampleResults } from "../support/sample-report";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

// The results table opens in the suite's order (numbers as numbers: i2 before i10), the order
// the CLI, the CSV export and the README list a run in; by name (alphabetical) only when asked.

let db: TestDatabase;
let prisma: PrismaClient;

beforeAll(async () => {
  db = await createTestDatabase();
  prisma = createPrismaClient(db.url);
});
afterAll(async () => {
  await prisma?.$disconnect();
  await db?.close();
});

describe("a run's results table order", () => {
  it("is the suite's order by default, walked page by page; alphabetical by name when asked", async () => {
    const store = createRunStore(prisma);
    const version = await store.saveSuiteVersion({ name: "items", yaml: "# items\n" });
    const runId = await store.createRun({
      ...version,
      startedBy: "cli",
      config: {
        file: "items.yaml",
        toolVersion: "0.1.0",
        judgeModel: "m",
        concurrency: 1,
        timeoutSeconds: 60,
      },
      totalCells: 12,
    });
    const template = sampleResults()[0]!;
    // Stored out of order, as a concurrent run finishes them.
    for (const n of [11, 3, 0, 10, 1, 7, 2, 9, 4, 8, 6, 5]) {
      const result: EvalResult = { ...template, id: `items [item=i${n}]`, name: `items [i${n}]` };
      await store.saveResult(runId, result);
    }
    const queries = createRunQueries(prisma);
    const first = await queries.runResultsPage({ runId, pageSize: 5 });
    const second = await queries.runResultsPage({ runId, pageSize: 5, cursor: first.nextCursor! });
    expect([...first.rows, ...second.rows].map((r) => r.name)).toEqual(
      [0, 1, 2, 3, 4, 5, 6, 7, 8, 9].map((n) => `items [i${n}]`),
    );
    const byName = await queries.runResultsPage({
      runId,
      pageSize: 4,
      sort: { by: "name", direction: "asc" },
    });
    // Alphabetical (by the database's collation): i10 comes among the first four, before i2.
    expect(byName.rows.map((r) => r.name)).toContain("items [i10]");
    expect(byName.rows.map((r) => r.name)).not.toContain("items [i2]");
  });
});
