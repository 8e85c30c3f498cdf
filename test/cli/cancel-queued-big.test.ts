import path from "node:path";
import { describe, expect, it } from "vitest";
import { useTestDatabase } from "../support/test-database";
import { writeLines } from "../support/measure-cli";
import { bigSuite, item, REASONING } from "../support/big-items";
import { makeWorkspace, startFakeJudge, startWorkerProcess } from "./cli-harness";

// Cancel of a big queued run (issue 20): the worker that sees the cancel stores the queued cells
// as skipped (cancelled) a page at a time, never every skipped result at once. Through the real
// CLI and a real `worker` in a 160 MB heap, against the stand-in Messages API.

const database = useTestDatabase();
const ITEMS = 20_000;

async function waitForEnd(runId: string, ms: number): Promise<string | undefined> {
  for (const end = Date.now() + ms; Date.now() < end;) {
    const run = await database.prisma.run.findUnique({ where: { id: runId } });
    if (run && ["completed", "cancelled", "failed"].includes(run.status)) return run.status;
    await new Promise((r) => setTimeout(r, 250));
  }
  return undefined;
}

describe("cancel of a big queued run", () => {
  it(`a worker in a 160 MB heap skips ${ITEMS} queued cells of ~6 KB answers and ends the run cancelled`, async ({
    onTestFinished,
  }) => {
    const ws = await makeWorkspace(onTestFinished);
    await writeLines(path.join(ws.dir, "items.jsonl"), ITEMS, item);
    await ws.write("suite.yaml", bigSuite("The answer is correct (cancel-queued-big)."));
    const judge = await startFakeJudge(onTestFinished, {
      respond: () => ({ verdict: { reasoning: REASONING, score: 0.9 } }),
    });
    const env = { ...judge.env, DATABASE_URL: database.url };
    const queued = await ws.cli(["eval", "--config", "suite.yaml", "--queue", "--detach"], env);
    expect(queued.code, queued.stderr).toBe(0);
    const runId = queued.stdout.trim();
    const cancel = await ws.cli(["cancel", runId], env);
    expect(cancel.code, cancel.stderr).toBe(0);

    // The code before this built all 20,000 skipped results (~120 MB of answers) at once.
    const worker = await startWorkerProcess({
      cwd: ws.dir,
      env: { ...env, NODE_OPTIONS: "--max-old-space-size=160" },
      onFinished: onTestFinished,
      concurrency: 4,
    });
    const status = await Promise.race([
      waitForEnd(runId, 300_000),
      worker.exited.then((code) => `worker exited (${code}): ${worker.stderr().slice(-2000)}`),
    ]);
    expect(status, worker.stderr().slice(-2000)).toBe("cancelled");
    const run = await database.prisma.run.findUnique({ where: { id: runId } });
    // At most the chunks the worker had in hand before it saw the cancel were graded.
    expect(run!.skipped).toBeGreaterThan(ITEMS - 2 * 256);
    expect(run!.skipped + run!.passed).toBe(ITEMS);
    expect(judge.api.requests.length).toBe(run!.passed);
    expect(await database.prisma.evalResultRow.count({ where: { runId } })).toBe(ITEMS);
  }, 600_000);
});
