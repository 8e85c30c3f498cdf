import { describe, expect, it } from "vitest";
import { createBatchRounds } from "../../lib/judge/batch-rounds";
import { createMessageBatchesClient } from "../../lib/judge/message-batches-client";
import { createBatchLedger } from "../../lib/store/batch-ledger";
import { createRunStore } from "../../lib/store/run-store";
import { startFakeMessagesApi } from "../support/fake-messages-api";
import { createStoredRun } from "../support/stored-run";
import { useTestDatabase } from "../support/test-database";

// A batched queued run's Message Batches seen by every worker (issue 20): a worker had asked the
// run's ledger about its first round; another worker then submitted a batch and died; its chunk,
// retried on the first worker, waits for the dead worker's batch instead of paying for its requests
// again (the ledger is asked about each round's ids as the round closes).
// The real SDK against the Message Batches stand-in, the ledger in a real database.

const database = useTestDatabase();

const params = (text: string) => ({
  model: "claude-sonnet-4-6",
  max_tokens: 64,
  messages: [{ role: "user" as const, content: text }],
});

async function until(check: () => Promise<boolean> | boolean, ms = 10_000) {
  for (const end = Date.now() + ms; Date.now() < end;) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error("timed out");
}

describe("a batched run's ledger across workers", () => {
  it("a worker that loaded the ledger earlier adopts a batch another worker stored since: nothing paid twice", async ({
    onTestFinished,
  }) => {
    const api = await startFakeMessagesApi({
      respond: () => ({ text: "ok" }),
      batches: { hold: true },
    });
    onTestFinished(() => api.close());
    const runId = await createStoredRun(createRunStore(database.prisma), {
      name: "batch ledger",
      yaml: "evals: []",
      cells: 2,
    });
    const client = () =>
      createMessageBatchesClient({ apiKey: "sk-ant-test", baseURL: api.url, timeoutMs: 5000 });
    const ledger = () => createBatchLedger({ prisma: database.prisma, runId });
    const dying = new AbortController();
    const alive = createBatchRounds({
      client: client(),
      pollMs: 20,
      gatherMs: 30,
      ledger: ledger(),
    });
    const dead = createBatchRounds({
      client: client(),
      pollMs: 20,
      gatherMs: 30,
      ledger: ledger(),
      signal: dying.signal,
    });

    // The live worker's first round: it reads the ledger (empty) and submits one batch.
    const first = alive.submit("cell-1", params("first"));
    await until(() => api.batches.length === 1);
    // The other worker submits its chunk's request, stores the batch, and dies.
    void dead.submit("cell-2", params("second"));
    await until(async () => (await database.prisma.runBatch.count({ where: { runId } })) === 2);
    dying.abort();

    // Its chunk comes back to the live worker once its heartbeat has expired (seconds later): the
    // same request, the same custom_id.
    await new Promise((r) => setTimeout(r, 100));
    const retried = alive.submit("cell-2", params("second"));
    await new Promise((r) => setTimeout(r, 300));
    api.releaseBatches();
    const settled = await Promise.all([first, retried]);
    expect(settled.map((s) => s.result.type)).toEqual(["succeeded", "succeeded"]);
    expect(api.batches).toHaveLength(2);
    expect(settled[1]!.batchId).toBe(api.batches[1]!.id);
    expect(api.batchBilled.get("cell-2")).toBe(1);
  });
});

describe("a run's batch ledger, asked about some custom_ids", () => {
  it("says which stored batch of the run holds each id asked about (the newest of two), and nothing of other runs", async () => {
    const store = createRunStore(database.prisma);
    const runId = await createStoredRun(store, { name: "ledger", yaml: "evals: []", cells: 1 });
    const otherRun = await createStoredRun(store, { name: "other", yaml: "evals: []", cells: 1 });
    const ledger = createBatchLedger({ prisma: database.prisma, runId });
    const ids = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${i}`);
    await ledger.save({ id: "msgbatch_old", customIds: ["x_1", ...ids("a", 3_000)] });
    await new Promise((r) => setTimeout(r, 5));
    await ledger.save({ id: "msgbatch_new", customIds: ["x_1", "y_1"] });
    await createBatchLedger({ prisma: database.prisma, runId: otherRun }).save({
      id: "msgbatch_other",
      customIds: ["z_1", "a7"],
    });

    const found = await ledger.find(["a7", "x_1", "y_1", "z_1", "nowhere", "a2999"]);
    const byId = Object.fromEntries(
      found.map((b) => [b.id, { ...b, customIds: b.customIds.sort() }]),
    );
    expect(byId).toEqual({
      msgbatch_old: { id: "msgbatch_old", size: 3_001, customIds: ["a2999", "a7"] },
      msgbatch_new: { id: "msgbatch_new", size: 2, customIds: ["x_1", "y_1"] },
    });
    expect(await ledger.find(["nowhere"])).toEqual([]);
    expect(await ledger.find([])).toEqual([]);
  });
});
