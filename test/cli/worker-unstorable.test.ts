import { describe, expect, it } from "vitest";
import { createRunStore } from "../../lib/store/run-store";
import { refuseResults } from "../support/refuse-results";
import { useTestDatabase } from "../support/test-database";
import {
  candidateOf,
  makeWorkspace,
  startFakeJudge,
  startWorkerProcess,
  yaml,
} from "./cli-harness";

// A queued run whose verdict or result the database cannot store, graded by a
// real worker process: before, the job failed, pg-boss retried it behind the
// judge-cache claim its own process still held (a 10-minute lease), no other
// run was graded meanwhile, and the run stayed running with none of its cost
// counted. Now a judge's NUL is stored as U+FFFD, a result the database
// refuses is stored as a judge error with its cause and cost, and the run
// queued after it is graded at once.

const database = useTestDatabase();

async function waitForEnd(runId: string, timeoutMs: number): Promise<string | undefined> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const run = await database.prisma.run.findUnique({
      where: { id: runId },
      select: { status: true },
    });
    if (run && ["completed", "cancelled", "failed"].includes(run.status)) return run.status;
    if (Date.now() > deadline) return run?.status;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const suite = (tag: string) =>
  yaml(
    "evals:",
    `  - name: refused`,
    `    response: "${tag} echo"`,
    "    rubric:",
    "      criteria:",
    '        - { name: c, description: "Is it good?" }',
    `  - name: fine`,
    `    response: "${tag} plain"`,
    "    rubric:",
    "      criteria:",
    '        - { name: c, description: "Is it good?" }',
  );

describe("a worker and what the database cannot store", () => {
  it(
    "a judge echoing a NUL does not stall the queue: that run and the one queued after it complete in seconds",
    { timeout: 120_000 },
    async ({ onTestFinished }) => {
      const ws = await makeWorkspace(onTestFinished);
      const judge = await startFakeJudge(onTestFinished, {
        respond: (request) =>
          candidateOf(request).includes("echo")
            ? { verdict: { reasoning: `It says "before\u0000after".`, score: 0.9 } }
            : { verdict: { reasoning: "ok", score: 0.9 } },
      });
      const env = { ...judge.env, DATABASE_URL: database.url };
      await ws.write("a.yaml", suite("A"));
      await ws.write("b.yaml", suite("B").replace("echo", "no echo here").replace(/echo"/, '"'));
      await startWorkerProcess({ cwd: ws.dir, env, onFinished: onTestFinished });
      const a = await ws.cli(["eval", "--config", "a.yaml", "--queue", "--detach"], env);
      const b = await ws.cli(["eval", "--config", "b.yaml", "--queue", "--detach"], env);
      expect(a.code, a.stderr).toBe(0);
      expect(b.code, b.stderr).toBe(0);
      const [runA, runB] = [a.stdout.trim(), b.stdout.trim()];
      expect(await waitForEnd(runA, 45_000)).toBe("completed");
      expect(await waitForEnd(runB, 45_000)).toBe("completed");
      const stored = (await createRunStore(database.prisma).results(runA)).find(
        (r) => r.eval === "refused",
      );
      expect(stored?.criteria[0]?.reasoning).toBe('It says "before\ufffdafter".');
      const run = await database.prisma.run.findUnique({ where: { id: runA } });
      expect(run).toMatchObject({ passed: 2, judgeCalls: 2 });
      expect(run!.costUsd).toBeGreaterThan(0);
    },
  );

  it(
    "a result the database refuses: its cell is a judge error with the cause and the cost, and the run finishes",
    { timeout: 120_000 },
    async ({ onTestFinished }) => {
      const ws = await makeWorkspace(onTestFinished);
      const judge = await startFakeJudge(onTestFinished);
      onTestFinished(
        await refuseResults({ prisma: database.prisma, name: "refuse_in_worker", which: "graded" }),
      );
      const env = { ...judge.env, DATABASE_URL: database.url };
      await ws.write("c.yaml", suite("C"));
      const worker = await startWorkerProcess({ cwd: ws.dir, env, onFinished: onTestFinished });
      const queued = await ws.cli(["eval", "--config", "c.yaml", "--queue", "--detach"], env);
      const runId = queued.stdout.trim();
      expect(await waitForEnd(runId, 45_000)).toBe("completed");
      const run = await database.prisma.run.findUnique({ where: { id: runId } });
      expect(run).toMatchObject({ passed: 1, judgeErrors: 1, judgeCalls: 2 });
      const refused = await database.prisma.evalResultRow.findFirst({
        where: { runId, evalName: "refused" },
      });
      expect(refused).toMatchObject({ status: "judge_error", judgeCalls: 1 });
      expect(refused!.reason).toMatch(/could not be stored: .*refused by the test's trigger/);
      expect(refused!.costUsd).toBeGreaterThan(0);
      // The run's cost is both cells' calls, the refused one's included.
      const rows = await database.prisma.evalResultRow.findMany({ where: { runId } });
      expect(run!.costUsd).toBeCloseTo(
        rows.reduce((sum, r) => sum + r.costUsd, 0),
        10,
      );
      expect(worker.stderr()).toMatch(
        new RegExp(`run ${runId}: refused: the result could not be stored: .*trigger`),
      );
      expect(worker.stderr()).not.toMatch(/\n\s+at /);
    },
  );

  it(
    "a cell whose every attempt fails: its last one stores it as a judge error that says why, and the run finishes",
    { timeout: 120_000 },
    async ({ onTestFinished }) => {
      const ws = await makeWorkspace(onTestFinished);
      const judge = await startFakeJudge(onTestFinished);
      // Every row of the eval "refused" is refused, its judge error in a refused result's place
      // too (so each attempt's job throws), but for what the last attempt stores.
      await database.prisma.$executeRawUnsafe(
        `CREATE OR REPLACE FUNCTION refuse_every_attempt() RETURNS trigger AS $$ BEGIN IF NEW.eval_name = 'refused' AND coalesce(NEW.reason, '') NOT LIKE '%attempts failed%' THEN RAISE EXCEPTION 'refused by the test''s trigger'; END IF; RETURN NEW; END $$ LANGUAGE plpgsql`,
      );
      await database.prisma.$executeRawUnsafe(
        "CREATE TRIGGER refuse_every_attempt BEFORE INSERT OR UPDATE ON eval_results FOR EACH ROW EXECUTE FUNCTION refuse_every_attempt()",
      );
      onTestFinished(async () => {
        await database.prisma.$executeRawUnsafe(
          "DROP TRIGGER refuse_every_attempt ON eval_results",
        );
      });
      const env = { ...judge.env, DATABASE_URL: database.url };
      await ws.write("d.yaml", suite("D"));
      const worker = await startWorkerProcess({ cwd: ws.dir, env, onFinished: onTestFinished });
      const queued = await ws.cli(["eval", "--config", "d.yaml", "--queue", "--detach"], env);
      const runId = queued.stdout.trim();
      expect(await waitForEnd(runId, 90_000), worker.stderr()).toBe("completed");
      const run = await database.prisma.run.findUnique({ where: { id: runId } });
      expect(run).toMatchObject({ passed: 1, judgeErrors: 1 });
      const failed = await database.prisma.evalResultRow.findFirst({
        where: { runId, evalName: "refused" },
      });
      expect(failed?.status).toBe("judge_error");
      expect(failed!.reason).toMatch(
        /^the worker could not grade this cell: 6 attempts failed, the last with: .*refused by the test's trigger/,
      );
    },
  );
});
