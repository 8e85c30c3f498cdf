import { describe, expect, it } from "vitest";
import { createBatchRounds } from "../../lib/judge/batch-rounds";
import { createMessageBatchesClient } from "../../lib/judge/message-batches-client";
import { createBatchLedger } from "../../lib/store/batch-ledger";
import { createRunStore } from "../../lib/store/run-store";
import { startFakeMessagesApi } from "../support/fake-messages-api";
import { createStoredRun } from "../support/stored-run";
import { useTestDatabase } from "../support/test-database";

// A batched queued run's Message Batches seen by every worker (issue 20): a worker loaded the run's
// ledger when it began a round; another worker then submitted a batch and died; its chunk, retried
// on the first worker, waits for the dead worker's batch instead of paying for its requests again.
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

    // Its chunk comes back to the live worker once its heartbeat has expired (seconds later; the
    // ledger is read again at most every second): the same request, the same custom_id.
    await new Promise((r) => setTimeout(r, 1_100));
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
