import { describe, expect, it } from "vitest";
import { enqueueSuiteRun } from "../../lib/store/enqueue-run";
import { skipQueuedCells } from "../../lib/store/run-cancel";
import { runProgress } from "../../lib/store/run-progress";
import { priceOfStoredCall as priceOf } from "../../lib/judge/provider-resolution";
import { createRunStore } from "../../lib/store/run-store";
import { createRunViews } from "../../lib/store/run-views";
import { GRADE_QUEUE, openQueue } from "../../lib/store/grade-queue";
import { useTestDatabase } from "../support/test-database";

// Cancel on a big queued run (a new user's walk: cells turned "skipped
// (cancelled)" ~11 a second, and a queued run stayed queued until the run
// ahead finished): the cells not yet started are skipped in one write, their
// jobs dropped, and the run is cancelled at once.

const database = useTestDatabase();

const CELLS = 400;

function bigSuite(): string {
  const lines = ["evals:"];
  for (let i = 1; i <= CELLS; i++) {
    lines.push(
      `  - name: answer ${i}`,
      `    response: "Answer ${i}."`,
      "    rubric:",
      "      criteria:",
      `        - { name: correct, description: "Answer ${i} is correct." }`,
    );
  }
  return lines.join("\n") + "\n";
}

const queuedJobs = async (runId: string) =>
  (
    await database.prisma.$queryRawUnsafe<{ n: number }[]>(
      "select count(*)::int as n from pgboss.job where name = $1 and data->>'runId' = $2 and state < 'active'",
      GRADE_QUEUE,
      runId,
    )
  )[0]!.n;

describe("cancelling a queued run", () => {
  it(`skips its ${CELLS} queued cells in one write, drops their jobs and ends the run cancelled`, async () => {
    const yaml = bigSuite();
    const store = createRunStore(database.prisma);
    const { suiteId } = await store.saveSuiteVersion({ name: `cancel big ${Date.now()}`, yaml });
    const started = await enqueueSuiteRun({
      prisma: database.prisma,
      databaseUrl: database.url,
      suiteId,
      yaml,
      judgeModel: "claude-test",
      toolVersion: "0.0.0",
    });
    if (!started.ok) throw new Error(started.message);
    const runId = started.value.runId;
    // Chunks of cells: a run is at least 8 jobs, here of 50 cells each.
    expect(await queuedJobs(runId)).toBe(8);

    expect(await store.requestCancel(runId)).toBe(true);
    // The page's snapshot carries the pending cancel (a reload still says "cancelling…").
    const views = createRunViews(database.prisma);
    expect(
      runProgress({ run: (await views.runOverview(runId))!, now: Date.now(), priceOf })
        .cancelRequested,
    ).toBe(true);
    const boss = await openQueue({ db: { url: database.url }, poolSize: 1 });
    const t0 = Date.now();
    try {
      expect(
        await skipQueuedCells({
          prisma: database.prisma,
          boss,
          queue: GRADE_QUEUE,
          runId,
          priceOf: () => undefined,
        }),
      ).toBe(CELLS);
    } finally {
      await boss.stop({ graceful: false });
    }
    const seconds = (Date.now() - t0) / 1000;

    const run = await database.prisma.run.findUnique({ where: { id: runId } });
    expect(run).toMatchObject({ status: "cancelled", skipped: CELLS, judgeCalls: 0 });
    expect(
      runProgress({ run: (await views.runOverview(runId))!, now: Date.now(), priceOf }),
    ).toMatchObject({ finished: true, cancelRequested: false });
    expect(await queuedJobs(runId)).toBe(0);
    const results = await store.results(runId);
    expect(results).toHaveLength(CELLS);
    expect(results.every((r) => r.status === "skipped" && r.skipKind === "cancelled")).toBe(true);
    // A worker taking a job of it afterwards does not bring it back to "running".
    await store.setStatus(runId, "running");
    expect((await store.getRun(runId))?.status).toBe("cancelled");
    // One write, not one job at a time (~11 cells a second before).
    expect(seconds).toBeLessThan(15);
  }, 120_000);
});
