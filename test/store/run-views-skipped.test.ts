import { describe, expect, it } from "vitest";
import { createRunStore } from "../../lib/store/run-store";
import { createRunViews } from "../../lib/store/run-views";
import { runProgress } from "../../lib/store/run-progress";
import { priceOfStoredCall as priceOf } from "../../lib/judge/provider-resolution";
import { createFakeJudge } from "../support/fake-judge";
import { runYaml } from "../support/run-yaml";
import { useTestDatabase } from "../support/test-database";

// The dashboard's count cards say why results were skipped: a cancelled run's
// skips are counted as cancelled, never under "Skipped (budget)"; a result
// stored before skips had a kind is counted by the cause its note began with.

const db = useTestDatabase();
const CONFIG = {
  file: "suite.yaml",
  toolVersion: "0.1.0",
  judgeModel: "claude-sonnet-4-5",
  concurrency: 1,
  timeoutSeconds: 60,
};
const SUITE = `
evals:
  - { name: first, response: "A.", rubric: "Good." }
  - { name: second, response: "B.", rubric: "Good." }
  - { name: third, response: "C.", rubric: "Good." }
`;

describe("a run's outcome counts", () => {
  it("count skipped results per cause, old stored results included", async () => {
    const cancel = new AbortController();
    const judge = createFakeJudge(() => {
      cancel.abort();
      return { score: 1, delayMs: 5 };
    });
    const report = await runYaml(SUITE, { judge, concurrency: 1, cancel: cancel.signal });
    expect(report.results.map((r) => r.status)).toEqual(["passed", "skipped", "skipped"]);

    const store = createRunStore(db.prisma);
    const version = await store.saveSuiteVersion({ name: "skipped-counts", yaml: SUITE });
    const runId = await store.createRun({
      ...version,
      startedBy: "dashboard",
      config: CONFIG,
      totalCells: 4,
    });
    for (const result of report.results) await store.saveResult(runId, result);
    // As a budget skip was stored before skips had a kind.
    const { skipKind: _kind, ...legacy } = report.results[2]!;
    await store.saveResult(runId, {
      ...legacy,
      id: "legacy",
      note: "skipped (budget): --max-cost was reached before all of this eval's judge calls could be scheduled",
    });

    const overview = (await createRunViews(db.prisma).runOverview(runId))!;
    expect(overview.counts).toMatchObject({
      passed: 1,
      skipped: 3,
      skippedBy: { cancelled: 2, budget: 1 },
    });
    expect(runProgress({ run: overview, now: Date.now(), priceOf }).counts.skippedBy).toEqual({
      cancelled: 2,
      budget: 1,
    });
    // Read back for the reporters, the old result has its kind and says its cause once.
    const legacyRead = (await store.results(runId)).find((r) => r.id === "legacy")!;
    expect(legacyRead).toMatchObject({
      skipKind: "budget",
      note: "--max-cost was reached before all of this eval's judge calls could be scheduled",
    });
  });
});
