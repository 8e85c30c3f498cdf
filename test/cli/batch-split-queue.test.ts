import { describe, expect, it } from "vitest";
import { useTestDatabase } from "../support/test-database";
import { makeWorkspace, startFakeJudge, startWorkerProcess, yaml } from "./cli-harness";

// A batched queued run too big for one Message Batch (issue 20): its rounds are split at the batch
// limit (lowered here with RUBRIC_STUDIO_BATCH_MAX_REQUESTS; the API's is 100,000 requests), each
// batch stored in the run's ledger; a worker killed while its batches run is taken over by another,
// which waits for them: the run resumes as one, every request billed once. Real CLI workers, the
// Message Batches stand-in, a real database.

const database = useTestDatabase();
const EVALS = 12;

function suite(): string {
  const lines = ["evals:"];
  for (let i = 1; i <= EVALS; i++)
    lines.push(
      `  - name: split ${i}`,
      `    response: "Answer number ${i}."`,
      `    rubric: "Answers question ${i} (batch-split-queue)."`,
      "    threshold: 0.5",
    );
  return yaml(...lines);
}

async function until(check: () => Promise<boolean>, ms: number): Promise<void> {
  for (const end = Date.now() + ms; Date.now() < end;) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error("timed out");
}

describe("a batched queued run split over several Message Batches", () => {
  it("splits its rounds at the limit, and a worker killed mid-batch is taken over: every request billed once", async ({
    onTestFinished,
  }) => {
    const ws = await makeWorkspace(onTestFinished);
    const judge = await startFakeJudge(onTestFinished, {
      respond: () => ({ verdict: { reasoning: "good", score: 0.9 } }),
      batches: { hold: true },
    });
    await ws.write("suite.yaml", suite());
    const env = {
      ...judge.env,
      DATABASE_URL: database.url,
      RUBRIC_STUDIO_BATCH_MAX_REQUESTS: "3",
    };
    const queued = await ws.cli(
      [
        "eval",
        "--config",
        "suite.yaml",
        "--queue",
        "--detach",
        "--batch",
        "--poll-interval",
        "0.05",
      ],
      env,
    );
    expect(queued.code, queued.stderr).toBe(0);
    const runId = queued.stdout.trim();
    const batches = () => database.prisma.runBatch.findMany({ where: { runId } });

    // The first worker submits its round of chunks, split at 3 requests a batch, then dies.
    const first = await startWorkerProcess({ cwd: ws.dir, env, onFinished: onTestFinished });
    await until(async () => (await batches()).length >= 2, 60_000);
    first.child.kill("SIGKILL");
    await first.exited;
    const submitted = judge.api.batches.length;

    // Another worker takes its chunks back once its heartbeat is gone, and the rest of the run.
    await startWorkerProcess({ cwd: ws.dir, env, onFinished: onTestFinished });
    judge.api.releaseBatches();
    await until(
      async () =>
        (await database.prisma.run.findUnique({ where: { id: runId } }))?.status === "completed",
      120_000,
    );
    const run = await database.prisma.run.findUnique({ where: { id: runId } });
    expect(run).toMatchObject({ passed: EVALS, judgeCalls: EVALS });
    expect(submitted).toBeGreaterThanOrEqual(2);
    expect(judge.api.batches.every((b) => b.requests.length <= 3)).toBe(true);
    expect(judge.api.batches.flatMap((b) => b.requests)).toHaveLength(EVALS);
    expect([...judge.api.batchBilled.values()]).toEqual(Array<number>(EVALS).fill(1));
    expect((await batches()).map((b) => b.id).sort()).toEqual(
      judge.api.batches.map((b) => b.id).sort(),
    );
  }, 240_000);
});
