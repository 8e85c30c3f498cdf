import { createWriteStream } from "node:fs";
import { once } from "node:events";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { useTestDatabase } from "../support/test-database";
import { heldAfter, makeWorkspace, startFakeJudge, startWorkerProcess, yaml } from "./cli-harness";

// A queued run of a few thousand cells from a JSON Lines dataset, shared by
// worker processes: chunks of cells per job (not one job per cell), the
// dataset file read by each worker as the CLI reads it (streamed, a file's
// bounds), every cell graded once, and a worker killed with SIGKILL costs at
// most the calls it had in flight.

const database = useTestDatabase();
const ITEMS = 3_000;

/** Each test's rubric is its own, so that no verdict of the other's comes from the judge cache. */
const suite = (rubric: string) =>
  yaml(
    "datasets:",
    "  big:",
    "    file: items.jsonl",
    "evals:",
    "  - name: answers",
    "    candidates: { dataset: big }",
    `    rubric: "${rubric}"`,
  );

async function writeItems(file: string) {
  const out = createWriteStream(file);
  for (let i = 1; i <= ITEMS; i++) {
    const line = JSON.stringify({
      id: `q${i}`,
      input: `Question ${i}?`,
      expected_output: `Answer ${i}.`,
    });
    if (!out.write(`${line}\n`)) await once(out, "drain");
  }
  out.end();
  await once(out, "finish");
}

async function waitFor(runId: string, test: (stored: number) => boolean, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (test(await database.prisma.evalResultRow.count({ where: { runId } }))) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return false;
}

async function waitForEnd(runId: string, timeoutMs: number): Promise<string | undefined> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const run = await database.prisma.run.findUnique({ where: { id: runId } });
    if (run && (run.status === "completed" || run.status === "cancelled")) return run.status;
    if (Date.now() > deadline) return run?.status;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function storedKeys(runId: string) {
  const rows = await database.prisma.evalResultRow.findMany({
    where: { runId },
    select: { resultKey: true, status: true },
  });
  return { count: rows.length, distinct: new Set(rows.map((r) => r.resultKey)).size, rows };
}

describe("eval --queue at scale", () => {
  it(`two workers share a run of ${ITEMS} dataset cells in chunks: every cell graded once, each worker some`, async ({
    onTestFinished,
  }) => {
    const ws = await makeWorkspace(onTestFinished);
    await writeItems(path.join(ws.dir, "items.jsonl"));
    await ws.write("suite.yaml", suite("The answer is correct."));
    const judge = await startFakeJudge(onTestFinished, {
      respond: () => ({ verdict: { reasoning: "ok", score: 0.9 } }),
    });
    const env = { ...judge.env, DATABASE_URL: database.url };
    const [a, b] = await Promise.all([
      startWorkerProcess({ cwd: ws.dir, env, onFinished: onTestFinished, concurrency: 16 }),
      startWorkerProcess({ cwd: ws.dir, env, onFinished: onTestFinished, concurrency: 16 }),
    ]);
    const queued = await ws.cli(["eval", "--config", "suite.yaml", "--queue", "--detach"], env);
    expect(queued.code, queued.stderr).toBe(0);
    const runId = queued.stdout.trim();
    // 3,000 cells of one call each: 12 chunks of 256, not 3,000 jobs.
    expect(queued.stderr).toContain(`Queued run ${runId}: 3,000 cells in 12 jobs`);
    expect(await waitForEnd(runId, 240_000)).toBe("completed");

    // The stand-in saw exactly the plan's calls, each once.
    const run = await database.prisma.run.findUnique({ where: { id: runId } });
    expect(run).toMatchObject({ totalCells: ITEMS, passed: ITEMS, judgeCalls: ITEMS });
    expect(judge.api.requests).toHaveLength(ITEMS);
    expect(new Set(judge.api.requests.map((r) => r.user)).size).toBe(ITEMS);
    const stored = await storedKeys(runId);
    expect(stored).toMatchObject({ count: ITEMS, distinct: ITEMS });
    const gradedBy = (w: { stderr(): string }) =>
      (w.stderr().match(new RegExp(`run ${runId}: passed`, "g")) ?? []).length;
    expect(gradedBy(a) + gradedBy(b)).toBe(ITEMS);
    expect(gradedBy(a)).toBeGreaterThan(0);
    expect(gradedBy(b)).toBeGreaterThan(0);
  }, 480_000);

  it("a worker killed with SIGKILL mid-run: the other finishes, nothing lost, at most the calls in flight paid twice", async ({
    onTestFinished,
  }) => {
    const ws = await makeWorkspace(onTestFinished);
    await writeItems(path.join(ws.dir, "items.jsonl"));
    await ws.write("suite.yaml", suite("The answer is right, and says so plainly."));
    // The first 1,000 requests are answered at once; later ones wait until release().
    const held = heldAfter(1_000);
    onTestFinished(() => held.release());
    const judge = await startFakeJudge(onTestFinished, { respond: held.respond });
    const env = { ...judge.env, DATABASE_URL: database.url };
    const [doomed] = await Promise.all([
      startWorkerProcess({ cwd: ws.dir, env, onFinished: onTestFinished, concurrency: 8 }),
      startWorkerProcess({ cwd: ws.dir, env, onFinished: onTestFinished, concurrency: 8 }),
    ]);
    const queued = await ws.cli(["eval", "--config", "suite.yaml", "--queue", "--detach"], env);
    expect(queued.code, queued.stderr).toBe(0);
    const runId = queued.stdout.trim();
    // What was answered is stored, and every call the workers can start is held: kill one there.
    // Not "16 in flight": a worker whose two chunks are both at their last cells holds fewer (it
    // takes no third chunk), but it holds some (a worker with no chunk in hand takes one within
    // its 0.5 s poll), so nothing asked for 3 s means each worker has calls in flight.
    let asked = -1;
    let askedSince = Date.now();
    const ready = await waitFor(
      runId,
      (n) => {
        if (judge.api.requests.length !== asked) {
          asked = judge.api.requests.length;
          askedSince = Date.now();
        }
        return n >= 900 && judge.api.inFlight() >= 2 && Date.now() - askedSince >= 3_000;
      },
      200_000,
    );
    expect(
      ready,
      `${await database.prisma.evalResultRow.count({ where: { runId } })} stored, ${judge.api.inFlight()} in flight, ${judge.api.requests.length} asked`,
    ).toBe(true);
    const inFlightAtKill = judge.api.inFlight();
    doomed!.child.kill("SIGKILL");
    await doomed!.exited;
    held.release();

    // Its chunks come back after its missed heartbeat (10 s) and the other worker grades them.
    expect(await waitForEnd(runId, 240_000)).toBe("completed");
    const stored = await storedKeys(runId);
    expect(stored).toMatchObject({ count: ITEMS, distinct: ITEMS });
    expect(stored.rows.every((r) => r.status === "passed")).toBe(true);
    // Every cell was asked for, and no more than the calls in flight at the kill were paid again.
    expect(new Set(judge.api.requests.map((r) => r.user)).size).toBe(ITEMS);
    expect(judge.api.requests.length).toBeLessThanOrEqual(ITEMS + inFlightAtKill);
  }, 480_000);
});
