import { describe, expect, it } from "vitest";
import { agentPrompt, isJudgeRequest } from "../support/agent-script";
import { useTestDatabase } from "../support/test-database";
import {
  makeWorkspace,
  spawnCli,
  startFakeJudge,
  startWorkerProcess,
  yaml,
  type OnFinished,
} from "./cli-harness";

// Cancel stops generation calls too (issue 19): a stored matrix of agents ×
// prompts whose candidates are generated (no response, no server), run by the
// real CLI (in the foreground, or by a queue worker) against the Messages API
// stand-in over HTTP. The stand-in holds every generation request (a slow
// model), so the first ones are in flight when `rubric-studio cancel` comes
// from another process: no further generation request is made, and every cell
// reads skipped (cancelled).

const database = useTestDatabase();

const PROMPTS = 6;
const AGENTS = ["claude-haiku-4-5", "claude-opus-4-1"];
const TOTAL = PROMPTS * AGENTS.length;
const NOT_GENERATED =
  "skipped (cancelled): the run was cancelled before the candidate was generated";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(check: () => boolean | Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await sleep(25);
  }
}

/** The stand-in: judges at once, holds every generation request until release(). */
async function slowModels(onFinished: OnFinished) {
  let release: () => void = () => {};
  const gate = new Promise<void>((resolve) => (release = resolve));
  onFinished(() => release());
  const judge = await startFakeJudge(onFinished, {
    respond: async (request) => {
      if (isJudgeRequest(request)) return { verdict: { reasoning: "ok", score: 0.9 } };
      await gate;
      return { text: `The answer to "${agentPrompt(request)}" is 4.` };
    },
  });
  const generations = () => judge.api.requests.filter((r) => !isJudgeRequest(r)).length;
  return { judge, release, generations, env: { ...judge.env, DATABASE_URL: database.url } };
}

function generatedMatrix(tag: string): string {
  const prompts = Array.from({ length: PROMPTS }, (_, i) => `"What is ${i} + 4? (${tag})"`);
  return yaml(
    "judge: { model: claude-sonnet-4-6 }",
    "evals:",
    "  - name: arithmetic",
    `    rubric: "Gives the right number (${tag})."`,
    "    matrix:",
    `      agents: [${AGENTS.join(", ")}]`,
    `      prompts: [${prompts.join(", ")}]`,
  );
}

interface Reported {
  status: string;
  skipKind?: string;
  reason?: string;
}

/** Every cell skipped (cancelled); all but the `generated` in flight at the cancel before their candidate. */
function expectCancelled(
  report: { results: Reported[]; summary: { skippedBy?: unknown } },
  generated: number,
) {
  expect(report.results).toHaveLength(TOTAL);
  expect(report.results.map((r) => `${r.status} (${r.skipKind})`)).toEqual(
    Array(TOTAL).fill("skipped (cancelled)"),
  );
  expect(report.results.filter((r) => r.reason === NOT_GENERATED)).toHaveLength(TOTAL - generated);
  expect(report.summary.skippedBy).toEqual({ cancelled: TOTAL });
}

const statusOf = async (runId: string) =>
  (await database.prisma.run.findUnique({ where: { id: runId }, select: { status: true } }))
    ?.status;

describe("cancel a run of generated candidates", () => {
  it(
    "`cancel RUN_ID` stops the generation calls: only the 2 in flight made of 12, every cell skipped (cancelled), the run cancelled",
    { timeout: 120_000 },
    async ({ onTestFinished }) => {
      const ws = await makeWorkspace(onTestFinished);
      const { judge, release, generations, env } = await slowModels(onTestFinished);
      await ws.write("generated.yaml", generatedMatrix("cancel"));

      const run = spawnCli({
        cwd: ws.dir,
        args: ["eval", "--config", "generated.yaml", "--concurrency", "2", "--reporter", "json"],
        env,
      });
      await until(() => judge.api.inFlight() === 2, 20_000);
      const runId = /Storing run ([0-9a-f-]{36})/.exec(run.stderr())?.[1];
      expect(runId, run.stderr()).toBeDefined();

      const cancel = await ws.cli(["cancel", runId!], env);
      expect(cancel.code, cancel.stderr).toBe(0);
      await sleep(1500); // the run notices within a second
      release();
      expect(await run.exited, run.stderr()).toBe(1);

      expect(generations()).toBe(2);
      expect(judge.api.requests).toHaveLength(2); // and no judge call after the cancel
      expectCancelled(JSON.parse(run.stdout()), 2);
      expect(run.stderr()).not.toContain("budget");
      expect(await statusOf(runId!)).toBe("cancelled");
      const stored = await ws.cli(["report", runId!, "--reporter", "json"], env);
      expectCancelled(JSON.parse(stored.stdout), 2);
    },
  );

  it(
    "a queued run: `cancel RUN_ID` stops the worker's generation calls: only the 4 in flight made of 12, the cells not started skipped (cancelled), not deferred",
    { timeout: 120_000 },
    async ({ onTestFinished }) => {
      const ws = await makeWorkspace(onTestFinished);
      const { judge, release, generations, env } = await slowModels(onTestFinished);
      await ws.write("queued.yaml", generatedMatrix("queued"));
      await startWorkerProcess({ cwd: ws.dir, env, onFinished: onTestFinished, concurrency: 4 });

      const queued = await ws.cli(["eval", "--config", "queued.yaml", "--queue", "--detach"], env);
      expect(queued.code, queued.stderr).toBe(0);
      const runId = queued.stdout.trim();
      await until(() => judge.api.inFlight() === 4, 60_000);

      const cancel = await ws.cli(["cancel", runId], env);
      expect(cancel.code, cancel.stderr).toBe(0);
      await sleep(1500); // the worker notices within half a second
      release();
      await until(async () => (await statusOf(runId)) === "cancelled", 60_000);
      await sleep(500);

      expect(generations()).toBe(4);
      expect(judge.api.requests).toHaveLength(4);
      const report = await ws.cli(["report", runId, "--reporter", "json"], env);
      expect(report.code, report.stderr).not.toBe(2);
      expectCancelled(JSON.parse(report.stdout), 4);
    },
  );
});
