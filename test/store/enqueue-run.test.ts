import { describe, expect, it } from "vitest";
import { rerunCommandFor } from "../../lib/engine/review/grade-review";
import { enqueueSuiteRun } from "../../lib/store/enqueue-run";
import { createRunStore } from "../../lib/store/run-store";
import { GRADE_QUEUE } from "../../lib/store/grade-queue";
import { useTestDatabase } from "../support/test-database";

// The dashboard's Run: plan, store the version, a queued run, one job per cell.

const database = useTestDatabase();

const YAML = `evals:
  - name: billing
    response: "Invoice 42 totaled $120.00."
    rubric:
      criteria:
        - name: correct total
          description: "States the total."
  - name: refund
    response: "Refunded."
    rubric:
      criteria:
        - name: polite
          description: "Is polite."
`;

describe("enqueueSuiteRun", () => {
  it("creates a queued dashboard run and its pg-boss jobs (a small run: a chunk of one cell each, at least 8 jobs a run)", async () => {
    const { suiteId } = await createRunStore(database.prisma).saveSuiteVersion({
      name: `enqueue ${Date.now()}`,
      yaml: YAML,
    });
    const started = await enqueueSuiteRun({
      prisma: database.prisma,
      databaseUrl: database.url,
      suiteId,
      yaml: YAML,
      judgeModel: "claude-test",
      toolVersion: "0.0.0",
    });
    expect(started.ok).toBe(true);
    if (!started.ok) return;
    expect(started.value.cells).toBe(2);
    const run = await database.prisma.run.findUnique({ where: { id: started.value.runId } });
    expect(run).toMatchObject({ suiteId, status: "queued", startedBy: "dashboard", totalCells: 2 });
    const jobs = await database.prisma.$queryRawUnsafe<{ n: number }[]>(
      "select count(*)::int as n from pgboss.job where name = $1 and data->>'runId' = $2",
      GRADE_QUEUE,
      started.value.runId,
    );
    expect(jobs[0]!.n).toBe(2);
  }, 60_000);

  it("counts the judge calls another vendor's judges will make (the progress line's total)", async () => {
    // A jury of 2 on an OpenAI judge model for one eval, Claude for the other: 3 calls in all.
    const yaml = YAML.replace(
      "  - name: refund\n",
      "    judge: { model: openai:gpt-4.1-mini, jury: { size: 2 } }\n  - name: refund\n",
    );
    const { suiteId } = await createRunStore(database.prisma).saveSuiteVersion({
      name: `enqueue openai ${Date.now()}`,
      yaml,
    });
    const started = await enqueueSuiteRun({
      prisma: database.prisma,
      databaseUrl: database.url,
      suiteId,
      yaml,
      judgeModel: "claude-sonnet-4-6",
      toolVersion: "0.0.0",
    });
    expect(started.ok).toBe(true);
    if (!started.ok) return;
    const run = await database.prisma.run.findUnique({ where: { id: started.value.runId } });
    expect(run?.config).toMatchObject({ plannedJudgeCalls: 3 });
  }, 60_000);

  it("counts no judge call for a cell the server has no key for: it defers (the CLI's Grading line says the same)", async () => {
    // Claude for one eval, an OpenAI jury of 2 for the other; the server holds the Anthropic key only.
    const yaml = YAML.replace(
      "  - name: refund\n",
      "    judge: { model: openai:gpt-4.1-mini, jury: { size: 2 } }\n  - name: refund\n",
    );
    const { suiteId } = await createRunStore(database.prisma).saveSuiteVersion({
      name: `enqueue keyless ${Date.now()}`,
      yaml,
    });
    const planned = async (keys: string[]) => {
      const started = await enqueueSuiteRun({
        prisma: database.prisma,
        databaseUrl: database.url,
        suiteId,
        yaml,
        judgeModel: "claude-sonnet-4-6",
        toolVersion: "0.0.0",
        hasKey: (name) => keys.includes(name),
      });
      if (!started.ok) throw new Error(started.message);
      expect(started.value.cells).toBe(2);
      const run = await database.prisma.run.findUnique({ where: { id: started.value.runId } });
      return (run?.config as { plannedJudgeCalls?: number }).plannedJudgeCalls;
    };
    expect(await planned([])).toBe(0);
    expect(await planned(["ANTHROPIC_API_KEY"])).toBe(1);
    expect(await planned(["ANTHROPIC_API_KEY", "OPENAI_API_KEY"])).toBe(3);
  }, 60_000);

  it("answers not_found for an unknown suite and bad_request for text that does not load", async () => {
    const missing = await enqueueSuiteRun({
      prisma: database.prisma,
      databaseUrl: database.url,
      suiteId: "00000000-0000-4000-8000-000000000000",
      yaml: YAML,
      judgeModel: "m",
      toolVersion: "0",
    });
    expect(missing).toMatchObject({ ok: false, code: "not_found" });
    const { suiteId } = await createRunStore(database.prisma).saveSuiteVersion({
      name: `broken ${Date.now()}`,
      yaml: YAML,
    });
    const broken = await enqueueSuiteRun({
      prisma: database.prisma,
      databaseUrl: database.url,
      suiteId,
      yaml: "evals: 3\n",
      judgeModel: "m",
      toolVersion: "0",
    });
    expect(broken).toMatchObject({ ok: false, code: "bad_request" });
  }, 60_000);

  it("grades a dashboard suite as the file its download is saved as, so a review's rerun command names that file", async () => {
    const name = `p trust ${Date.now()}`;
    const review = `evals:
  - name: checkout prd
    document: "# Checkout v2"
    rubric:
      categories:
        - { id: problem, description: "States the problem." }
`;
    const { suiteId } = await createRunStore(database.prisma).saveSuiteVersion({
      name,
      yaml: review,
    });
    const started = await enqueueSuiteRun({
      prisma: database.prisma,
      databaseUrl: database.url,
      suiteId,
      yaml: review,
      judgeModel: "claude-test",
      toolVersion: "0.0.0",
    });
    if (!started.ok) throw new Error(started.message);
    const run = await createRunStore(database.prisma).getRun(started.value.runId);
    expect(run?.config.file).toBe(`${name}.yaml`);
    expect(rerunCommandFor({ suiteFile: run!.config.file, evalName: "checkout prd" })).toBe(
      `rubric-studio review --config '${name}.yaml' --filter '^checkout prd$'`,
    );
  }, 60_000);
});
