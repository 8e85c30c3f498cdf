import Anthropic from "@anthropic-ai/sdk";
import { describe, expect, it } from "vitest";
import { createBatchRounds, type StoredBatch } from "../../lib/judge/batch-rounds";
import {
  createMessageBatchesClient,
  type BatchClient,
  type BatchResult,
} from "../../lib/judge/message-batches-client";
import { startFakeMessagesApi } from "../support/fake-messages-api";
import { FAKE_API_KEY } from "./judge-helpers";

// A batched run's ledger is read per round with that round's custom_ids only (issue 20): a
// 300,000-call queued run's workers each kept every custom_id of the run in memory, read again as
// each round began (~50 to 60 MB, growing with the run). Still, a request another process already
// submitted waits for that batch and is not paid twice. The real SDK against the stand-in.

const params = (text: string): Anthropic.MessageCreateParamsNonStreaming => ({
  model: "claude-sonnet-4-6",
  max_tokens: 64,
  messages: [{ role: "user", content: text }],
});

/** A ledger in memory that records what it is asked. */
function countingLedger(stored: StoredBatch[]) {
  const asked: string[][] = [];
  let wholeReads = 0;
  return {
    asked,
    wholeReads: () => wholeReads,
    ledger: {
      find: async (customIds: readonly string[]) => {
        asked.push([...customIds].sort());
        return stored.flatMap((batch) => {
          const held = batch.customIds.filter((id) => customIds.includes(id));
          return held.length
            ? [{ id: batch.id, size: batch.customIds.length, customIds: held }]
            : [];
        });
      },
      save: async (batch: StoredBatch) => void stored.push(batch),
      // What a ledger read whole would be asked (the run's every batch and custom_id).
      load: async () => {
        wholeReads++;
        return stored;
      },
    },
  };
}

describe("a batched run's rounds and its ledger", () => {
  it("asks the ledger about each round's custom_ids only, and waits for another process's batch instead of paying again", async ({
    onTestFinished,
  }) => {
    const api = await startFakeMessagesApi({ respond: () => ({ text: "ok" }) });
    onTestFinished(() => api.close());
    // Another process of the run submitted `theirs` (and `gone`, which nothing here asks for).
    const sdk = new Anthropic({ apiKey: FAKE_API_KEY, baseURL: api.url, maxRetries: 0 });
    const earlier = await sdk.messages.batches.create({
      requests: [
        { custom_id: "theirs", params: params("theirs") },
        { custom_id: "gone", params: params("gone") },
      ],
    });
    const counting = countingLedger([{ id: earlier.id, customIds: ["theirs", "gone"] }]);
    const progress: { id: string; submitted: number }[] = [];
    const rounds = createBatchRounds({
      client: createMessageBatchesClient({
        apiKey: FAKE_API_KEY,
        baseURL: api.url,
        timeoutMs: 5000,
      }),
      pollMs: 20,
      gatherMs: 50,
      ledger: counting.ledger,
      onProgress: ({ id, submitted }) => progress.push({ id, submitted }),
    });

    const first = await Promise.all(
      ["a1", "theirs", "a2"].map((id) => rounds.submit(id, params(id))),
    );
    expect(first.map((s) => s.result.type)).toEqual(["succeeded", "succeeded", "succeeded"]);
    expect(first[1]!.batchId).toBe(earlier.id);
    const second = await rounds.submit("b1", params("b1"));
    expect(second.result.type).toBe("succeeded");

    expect(counting.asked).toEqual([["a1", "a2", "theirs"], ["b1"]]);
    expect(counting.wholeReads()).toBe(0);
    // The earlier batch, then one per round; `theirs` billed once.
    expect(api.batches.map((b) => b.requests.length)).toEqual([2, 2, 1]);
    expect(api.batchBilled.get("theirs")).toBe(1);
    // The adopted batch's progress counts all it holds, as the process that submitted it said.
    expect(progress).toContainEqual({ id: earlier.id, submitted: 2 });
  });
});

describe("a batch's results", () => {
  it("answers each waiter as its line is read, before the rest of a batch's results has come", async () => {
    let release!: () => void;
    const rest = new Promise<void>((resolve) => (release = resolve));
    const ok = (text: string) =>
      ({
        type: "succeeded",
        message: { id: text, content: [{ type: "text", text }] },
      }) as unknown as BatchResult;
    const sent: string[][] = [];
    const client: BatchClient = {
      create: async (requests) => {
        sent.push(requests.map((json) => (JSON.parse(json) as { custom_id: string }).custom_id));
        return { id: "msgbatch_1", status: "in_progress", counts: view };
      },
      retrieve: async () => ({ id: "msgbatch_1", status: "ended", counts: view }),
      // A batch of a hundred thousand replies is read line by line, not held whole.
      results: async function* () {
        yield { customId: "first", result: ok("first") };
        await rest;
        yield { customId: "second", result: ok("second") };
      },
    };
    const rounds = createBatchRounds({ client, pollMs: 10, gatherMs: 30 });
    const first = rounds.submit("first", params("first"));
    const second = rounds.submit("second", params("second"));
    expect((await first).result.type).toBe("succeeded");
    let secondDone = false;
    void second.then(() => (secondDone = true));
    await new Promise((r) => setTimeout(r, 50));
    expect(secondDone).toBe(false);
    release();
    expect((await second).result.type).toBe("succeeded");
    expect(sent).toEqual([["first", "second"]]);
  });
});

const view = { processing: 0, succeeded: 0, errored: 0, canceled: 0, expired: 0 };
