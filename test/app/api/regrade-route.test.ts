import { afterAll, beforeAll, describe, expect, it } from "vitest";
// A test may call a route handler the way Next does; the rule keeps lib/ and components/ off app/.
// eslint-disable-next-line no-restricted-imports
import { POST } from "../../../app/api/runs/[id]/regrade/route";
import { createRunStore } from "../../../lib/store/run-store";
import { createFakeJudge } from "../../support/fake-judge";
import { runYaml } from "../../support/run-yaml";
import { useTestDatabase } from "../../support/test-database";
import { releaseRouteDatabase } from "../../support/route-database";

// POST /api/runs/[id]/regrade (Re-grade with…): clear refusals (an unknown
// run, a version that is not the suite's: 404 in words; a bad body: 400; a run
// none of whose cells recorded a candidate: 400 saying how many and why), and a
// run whose generated cells deferred is re-graded for the rest, saying so.

const db = useTestDatabase();
// One fixed response, and one generated candidate that deferred (no model key when it ran).
const YAML = [
  "evals:",
  "  - name: fixed",
  '    response: "4."',
  '    rubric: "Is it right?"',
  "  - name: generated",
  '    prompt: "What is 2 + 2?"',
  "    agent: { model: claude-haiku-4-5 }",
  '    rubric: "Is it right?"',
  "",
].join("\n");

let runId: string;
let onlyDeferred: string;

async function storeRun(yaml: string, keep: (name: string) => boolean): Promise<string> {
  const store = createRunStore(db.prisma);
  const report = await runYaml(yaml, { judge: createFakeJudge(() => ({ score: 0.9 })) });
  const { suiteId, suiteVersionId } = await store.saveSuiteVersion({ name: "suite.yaml", yaml });
  const id = await store.createRun({
    suiteId,
    suiteVersionId,
    startedBy: "cli",
    config: {
      file: "suite.yaml",
      toolVersion: "test",
      judgeModel: "claude-sonnet-4-6",
      concurrency: 1,
      timeoutSeconds: 60,
    },
    totalCells: 2,
  });
  for (const result of report.results.filter((r) => keep(r.eval)))
    await store.saveResult(id, result);
  await store.setStatus(id, "completed");
  return id;
}

beforeAll(async () => {
  process.env.DATABASE_URL = db.url;
  runId = await storeRun(YAML, () => true);
  onlyDeferred = await storeRun(YAML, (name) => name === "generated");
}, 60_000);
afterAll(releaseRouteDatabase);

async function regrade(id: string, body: unknown) {
  const response = await POST(
    new Request(`http://127.0.0.1/api/runs/${id}/regrade`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    }),
    { params: Promise.resolve({ id }) },
  );
  return {
    status: response.status,
    body: (await response.json()) as {
      runId?: string;
      cells?: number;
      notes?: string[];
      error?: { message: string };
    },
  };
}

describe("POST /api/runs/[id]/regrade", () => {
  it("refuses in words: an unknown run, a version not of its suite, a bad body", async () => {
    const unknown = await regrade("00000000-0000-4000-8000-000000000000", {});
    expect(unknown.status).toBe(404);
    expect(unknown.body.error?.message).toBe("No run with that id.");
    const version = await regrade(runId, { versionId: "00000000-0000-4000-8000-000000000001" });
    expect(version.status).toBe(404);
    expect(version.body.error?.message).toMatch(
      /^Suite suite\.yaml has no version 00000000-0000-4000-8000-000000000001: it may have been deleted/,
    );
    expect((await regrade(runId, { judge: 5 })).status).toBe(400);
    expect((await regrade(runId, { judge: "x".repeat(201) })).status).toBe(400);
    expect((await regrade(runId, { versionId: "v1" })).status).toBe(400);
    // A judge whose provider nobody declared would defer every cell: refused, nothing queued.
    const typo = await regrade(runId, { judge: "locla:qwen3-8b" });
    expect(typo.status).toBe(400);
    expect(typo.body.error?.message).toMatch(
      /^Judge model: unknown provider "locla" in model "locla:qwen3-8b"; known providers: anthropic, openai/,
    );
  });

  it("re-grades the cells with a candidate and says how many had none and why", async () => {
    const started = await regrade(runId, { judge: "claude-haiku-4-5" });
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    expect(started.body.cells).toBe(1);
    expect(started.body.notes).toEqual([
      `1 cell of run ${runId.slice(0, 8)} recorded no candidate to grade again (1 deferred there): not re-graded; produce them with a new run.`,
    ]);
    const row = await db.prisma.run.findUniqueOrThrow({ where: { id: started.body.runId! } });
    expect(row).toMatchObject({ regradeOf: runId, status: "queued", totalCells: 1 });
    expect(row.config).toMatchObject({ regradeOf: runId, regradeJudge: "claude-haiku-4-5" });

    const nothing = await regrade(onlyDeferred, {});
    expect(nothing.status).toBe(400);
    expect(nothing.body.error?.message).toMatch(
      /^Nothing to re-grade: 1 cell of run .{8} recorded no candidate to grade again \(1 deferred there\)/,
    );
  });
});
