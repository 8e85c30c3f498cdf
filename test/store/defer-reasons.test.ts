import { describe, expect, it } from "vitest";
import { createRunStore } from "../../lib/store/run-store";
import { createRunQueries } from "../../lib/store/run-queries";
import { createFakeJudge } from "../support/fake-judge";
import { runSuite } from "../../lib/engine/run-suite";
import { suiteFrom, flatPrice } from "../support/run-yaml";
import { useTestDatabase } from "../support/test-database";

// A run whose evals deferred (no judge key on the server) says why: the run
// page's header note groups the causes, and the table's Reason cell gives the
// cause beside the "deferred" badge, without repeating "deferred:".

const db = useTestDatabase();
const SUITE = [
  "evals:",
  '  - { name: one, response: "A.", rubric: "Good." }',
  '  - { name: two, response: "B.", rubric: "Good." }',
].join("\n");
const NO_KEY =
  "no ANTHROPIC_API_KEY on the server: set it where the dashboard runs to grade for real";

describe("a run with deferred results", () => {
  it("groups why they deferred, and the table's reason is the cause alone", async () => {
    const report = await runSuite(
      {
        suite: suiteFrom(SUITE),
        defaultModel: "claude-sonnet-4-5",
        judgeUnavailable: NO_KEY,
        concurrency: 1,
        toolVersion: "test",
      },
      { judge: createFakeJudge(() => ({ score: 1 })), now: Date.now, priceOf: flatPrice(0.01) },
    );
    expect(report.results.map((r) => r.status)).toEqual(["deferred", "deferred"]);
    const store = createRunStore(db.prisma);
    const version = await store.saveSuiteVersion({ name: "defer-reasons", yaml: SUITE });
    const runId = await store.createRun({
      ...version,
      startedBy: "dashboard",
      config: {
        file: "suite.yaml",
        toolVersion: "test",
        judgeModel: "claude-sonnet-4-5",
        concurrency: 1,
        timeoutSeconds: 60,
      },
      totalCells: 2,
    });
    for (const result of report.results) await store.saveResult(runId, result);

    const queries = createRunQueries(db.prisma);
    expect(await queries.deferReasons(runId)).toEqual([{ reason: NO_KEY, count: 2 }]);
    const page = await queries.runResultsPage({ runId, pageSize: 10 });
    expect(page.rows.map((r) => r.reason)).toEqual([NO_KEY, NO_KEY]);
  });
});
