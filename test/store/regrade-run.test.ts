import { describe, expect, it } from "vitest";
import { agentPrompt, isJudgeRequest } from "../support/agent-script";
import { useTestDatabase } from "../support/test-database";
import { enqueueRegrade } from "../../lib/store/regrade-run";
import { createRegradeViews } from "../../lib/store/regrade-views";
import { createRunStore } from "../../lib/store/run-store";
import {
  candidateOf,
  makeWorkspace,
  startFakeJudge,
  startWorkerProcess,
  yaml,
} from "../cli/cli-harness";

// The dashboard's Re-grade with… (issue 19): a stored run of generated
// candidates, queued again with an edited version of its suite through the
// dashboard's run machinery (enqueueRegrade, then a real `worker` process
// against the Messages API stand-in). No generation call; the run is linked
// to its source (`runs.regrade_of`); the flips, `report`'s `previous` and the
// flips page's counts agree with a hand count.

const database = useTestDatabase();

const PROMPTS = ["What is 2 + 2?", "What is 8 / 2?", "What is 3 + 1?"];

const suite = (rubric: string, response = "4 apples.") =>
  yaml(
    "judge: { model: claude-sonnet-4-6 }",
    "evals:",
    "  - name: arithmetic",
    `    rubric: "${rubric}"`,
    "    matrix:",
    "      agents: [claude-haiku-4-5, claude-opus-4-1]",
    `      prompts: ${JSON.stringify(PROMPTS)}`,
    "  - name: fixed",
    `    response: "${response}"`,
    `    rubric: "${rubric}"`,
  );

interface Json {
  runId: string;
  regradeOf?: string;
  results: { name: string; status: string; previous?: { status: string; score: number | null } }[];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("Re-grade with… (the dashboard's regrade)", () => {
  it(
    "grades the stored candidates with another version through a worker: no generation call, linked to its source, the flips counted by hand",
    { timeout: 120_000 },
    async ({ onTestFinished }) => {
      const ws = await makeWorkspace(onTestFinished);
      // opus answers with a unit, haiku without; the edited rubric asks for the unit.
      const judge = await startFakeJudge(onTestFinished, {
        respond: (request) => {
          if (!isJudgeRequest(request))
            return {
              text: `${request.body.model === "claude-opus-4-1" ? "4 apples" : "4"}, to ${agentPrompt(request)}`,
            };
          const units = request.system.includes("with its unit");
          const ok = !units || candidateOf(request).includes("apples");
          return { verdict: { reasoning: ok ? "right" : "no unit", score: ok ? 0.9 : 0.2 } };
        },
      });
      const env = { ...judge.env, DATABASE_URL: database.url };
      await ws.write("suite.yaml", suite("Gives the right number."));
      const first = await ws.cli(["eval", "--config", "suite.yaml", "--reporter", "json"], env);
      expect(first.code, first.stderr).toBe(0);
      const source = JSON.parse(first.stdout) as Json;
      const generations = () => judge.api.requests.filter((r) => !isJudgeRequest(r)).length;
      expect(generations()).toBe(6);

      const store = createRunStore(database.prisma);
      const { suiteVersionId } = await store.saveSuiteVersion({
        name: "suite.yaml",
        // The fixed response edited too: the regrade grades the one the run graded ("4 apples.").
        yaml: suite("Gives the right number with its unit.", "4."),
      });
      const missing = await enqueueRegrade({
        prisma: database.prisma,
        databaseUrl: database.url,
        sourceRunId: source.runId,
        versionId: "00000000-0000-4000-8000-000000000000",
        judgeModel: "claude-sonnet-4-6",
        toolVersion: "test",
      });
      expect(missing).toMatchObject({ ok: false, code: "not_found" });
      expect(!missing.ok && missing.message).toMatch(/has no version 00000000-.*deleted/);

      const started = await enqueueRegrade({
        prisma: database.prisma,
        databaseUrl: database.url,
        sourceRunId: source.runId,
        versionId: suiteVersionId,
        judgeModel: "claude-sonnet-4-6",
        toolVersion: "test",
      });
      if (!started.ok) throw new Error(started.message);
      expect(started.value).toMatchObject({ cells: 7, notes: [] });
      const runId = started.value.runId;
      const stored = await database.prisma.run.findUnique({ where: { id: runId } });
      expect(stored).toMatchObject({ regradeOf: source.runId, status: "queued" });

      await startWorkerProcess({ cwd: ws.dir, env, onFinished: onTestFinished });
      const deadline = Date.now() + 60_000;
      while ((await store.getRun(runId))?.status !== "completed") {
        if (Date.now() > deadline) throw new Error("the regrade did not finish");
        await sleep(100);
      }
      expect(generations()).toBe(6);

      // By hand: haiku's 3 answers have no unit and now fail; opus's 3 and the fixed one pass as before.
      const views = createRegradeViews(database.prisma);
      expect(await views.flipCounts({ runId })).toEqual({
        nowFail: 3,
        nowPass: 0,
        criteria: 0,
        notGraded: 0,
        moved: 0,
        unchanged: 4,
      });
      expect(await views.flipCounts({ runId, filter: { agent: "claude-opus-4-1" } })).toEqual({
        nowFail: 0,
        nowPass: 0,
        criteria: 0,
        notGraded: 0,
        moved: 0,
        unchanged: 3,
      });
      const { pairs: page } = await views.flipPage({ runId });
      expect(page.map((p) => [p.kind, p.previous.status, p.current.status])).toEqual(
        Array(3).fill(["now_fail", "passed", "failed"]),
      );
      expect(page[0]!.current.judges[0]!.reasoning ?? page[0]!.current.criteria[0]?.reasoning).toBe(
        "no unit",
      );

      // The source's own version again: every verdict from the judge cache, nothing asked, nothing flips.
      const own = (await store.getRun(source.runId))!;
      const ownVersion = await database.prisma.run.findUniqueOrThrow({
        where: { id: own.id },
        select: { suiteVersionId: true },
      });
      const asked = judge.api.requests.length;
      const same = await enqueueRegrade({
        prisma: database.prisma,
        databaseUrl: database.url,
        sourceRunId: source.runId,
        versionId: ownVersion.suiteVersionId,
        judgeModel: "claude-sonnet-4-6",
        toolVersion: "test",
      });
      if (!same.ok) throw new Error(same.message);
      while ((await store.getRun(same.value.runId))?.status !== "completed") {
        if (Date.now() > deadline) throw new Error("the second regrade did not finish");
        await sleep(100);
      }
      expect(judge.api.requests.length).toBe(asked);
      expect(await views.flipCounts({ runId: same.value.runId })).toEqual({
        nowFail: 0,
        nowPass: 0,
        criteria: 0,
        notGraded: 0,
        moved: 0,
        unchanged: 7,
      });

      // Another judge: every judge request goes to it, still with no generation call.
      const other = await enqueueRegrade({
        prisma: database.prisma,
        databaseUrl: database.url,
        sourceRunId: source.runId,
        versionId: ownVersion.suiteVersionId,
        judge: "claude-opus-4-1",
        judgeModel: "claude-sonnet-4-6",
        toolVersion: "test",
      });
      if (!other.ok) throw new Error(other.message);
      while ((await store.getRun(other.value.runId))?.status !== "completed") {
        if (Date.now() > deadline) throw new Error("the third regrade did not finish");
        await sleep(100);
      }
      const judged = judge.api.requests.slice(asked);
      expect(judged.map((r) => r.body.model)).toEqual(Array(7).fill("claude-opus-4-1"));
      expect(generations()).toBe(6);

      const report = await ws.cli(["report", runId, "--reporter", "json"], env);
      const json = JSON.parse(report.stdout) as Json;
      expect(json.regradeOf).toBe(source.runId);
      expect(json.results.slice(0, 3).map((r) => [r.status, r.previous?.status])).toEqual(
        Array(3).fill(["failed", "passed"]),
      );
      expect(json.results.slice(3).every((r) => r.previous?.status === "passed")).toBe(true);
    },
  );
});
