import { describe, expect, it } from "vitest";
import { createRunStore } from "../../lib/store/run-store";
import { createRunViews } from "../../lib/store/run-views";
import { createRunQueries } from "../../lib/store/run-queries";
import { createFakeJudge } from "../support/fake-judge";
import { runYaml } from "../support/run-yaml";
import { useTestDatabase } from "../support/test-database";

// The run page's Reason column and result page show a judge error's message
// beside the "judge error" badge, never a raw `judge_error: ` prefix: for new
// results, and for results stored by an earlier version with the prefix.

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
  - { name: unlucky, response: "A.", rubric: "Good." }
`;

describe("a judge error's reason", () => {
  it("is its message, in the table, on the result page and for the reporters, old stored results included", async () => {
    const judge = createFakeJudge(() => ({ error: "timeout", message: "no reply in 60s" }));
    const report = await runYaml(SUITE, { judge });
    const [result] = report.results;
    expect(result).toMatchObject({
      status: "judge_error",
      reason: "claude-sonnet-4-5 #1: timeout: no reply in 60s",
    });

    const store = createRunStore(db.prisma);
    const version = await store.saveSuiteVersion({ name: "judge-error-reason", yaml: SUITE });
    const runId = await store.createRun({
      ...version,
      startedBy: "dashboard",
      config: CONFIG,
      totalCells: 2,
    });
    await store.saveResult(runId, result!);
    // As an earlier version stored it.
    await store.saveResult(runId, {
      ...result!,
      id: "legacy",
      name: "legacy",
      reason: `judge_error: ${result!.reason}`,
    });

    const page = await createRunQueries(db.prisma).runResultsPage({ runId, pageSize: 10 });
    expect(page.rows.map((r) => r.reason)).toEqual([
      "claude-sonnet-4-5 #1: timeout: no reply in 60s",
      "claude-sonnet-4-5 #1: timeout: no reply in 60s",
    ]);
    expect(
      (await createRunViews(db.prisma).evalResult({ runId, resultKey: "legacy" }))?.reason,
    ).toBe("claude-sonnet-4-5 #1: timeout: no reply in 60s");
    expect((await store.results(runId)).map((r) => r.reason)).toEqual([
      "claude-sonnet-4-5 #1: timeout: no reply in 60s",
      "claude-sonnet-4-5 #1: timeout: no reply in 60s",
    ]);
  });
});
