import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { providersForRun } from "../../lib/cli/providers-for-run";
import type { ProviderConfig } from "../../lib/config/provider-schema";
import type { EvalResult } from "../../lib/engine/results/report";
import type { Settings } from "../../lib/env/read-env";
import { enqueueSuiteRun } from "../../lib/store/enqueue-run";
import { createRunStore } from "../../lib/store/run-store";
import { openQueue } from "../../lib/store/grade-queue";
import { startWorker } from "../../lib/store/run-worker";
import { startFakeOpenAIApi, type FakeOpenAIApi } from "../support/fake-openai-api";
import { useTestDatabase } from "../support/test-database";

// A dashboard run judged by a server-defined OpenAI-compatible provider, end
// to end through the queue worker as scripts/serve.ts starts it: the run is
// queued as the Run button queues it, and the worker's providers come from
// providersForRun with the server's providers, against the OpenAI-compatible
// stand-in and the real `openai` SDK.

const database = useTestDatabase();
const KEY = "sk-local-0123456789abcdef";
let local: FakeOpenAIApi;
let elsewhere: FakeOpenAIApi;

beforeAll(async () => {
  local = await startFakeOpenAIApi({
    respond: (r) =>
      // A gateway that quotes the key it got, percent-encoded (no credential shape matches that).
      r.model === "echo"
        ? {
            status: 401,
            body: {
              error: {
                message: `Incorrect API key provided: ${encodeURIComponent(KEY).replaceAll("-", "%2D")}`,
              },
            },
          }
        : {
            verdict: { reasoning: `graded by ${r.model}`, score: 0.9 },
            usage: { prompt_tokens: 900, completion_tokens: 40 },
          },
  });
  elsewhere = await startFakeOpenAIApi();
});
afterAll(async () => {
  await local?.close();
  await elsewhere?.close();
});

const settings: Settings = { judgeModel: "claude-sonnet-4-6" };
const server = (): Record<string, ProviderConfig> => ({
  local: { type: "openai", baseUrl: local.url, apiKeyEnv: "RS_LOCAL_KEY" },
});

async function runFromDashboard(yaml: string): Promise<Map<string, EvalResult>> {
  const prisma = database.prisma;
  const { suiteId } = await createRunStore(prisma).saveSuiteVersion({
    name: `providers ${Math.random()}`,
    yaml,
  });
  const started = await enqueueSuiteRun({
    prisma,
    databaseUrl: database.url,
    suiteId,
    yaml,
    judgeModel: "claude-sonnet-4-6",
    toolVersion: "0.0.0-test",
  });
  if (!started.ok) throw new Error(started.message);
  const db = { url: database.url, prisma, source: "url" as const, close: async () => {} };
  const boss = await openQueue({ db, poolSize: 2 });
  const worker = await startWorker({
    db,
    boss,
    // The server's environment: its key for `local`, and a variable a suite must not reach.
    providersFor: providersForRun({
      settings,
      env: { RS_LOCAL_KEY: KEY, DATABASE_URL: "postgres://secret@db/x" },
      serverProviders: server(),
      timeoutSeconds: 10,
    }),
    concurrency: 4,
    judgeModel: "claude-sonnet-4-6",
    toolVersion: "0.0.0-test",
  });
  try {
    for (let i = 0; i < 400; i++) {
      const run = await prisma.run.findUnique({
        where: { id: started.value.runId },
        select: { status: true },
      });
      if (run?.status === "completed") break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const results = await createRunStore(prisma).results(started.value.runId);
    expect(results).toHaveLength(started.value.cells);
    return new Map(results.map((r) => [r.name, r]));
  } finally {
    await worker.stop();
    await boss.stop({ graceful: true });
  }
}

const evalOf = (name: string, model: string, response = "Refunds take 5 days.") =>
  `  - name: ${name}\n    response: "${response}"\n    rubric: "States how long a refund takes."\n    judge: { model: "${model}" }\n`;

describe(
  "a dashboard run with a server-defined OpenAI-compatible provider",
  { timeout: 120_000 },
  () => {
    it("judges through the provider's endpoint with the server's key; a Claude model without a key defers", async () => {
      const before = local.requests.length;
      const yaml = `providers:\n  local: { type: openai, base_url: "${local.url}", api_key_env: RS_LOCAL_KEY }\nevals:\n${evalOf("local judge", "local:qwen3-8b")}${evalOf("claude judge", "claude-haiku-4-5")}`;
      const results = await runFromDashboard(yaml);

      const graded = results.get("local judge")!;
      expect(graded.status).toBe("passed");
      expect(graded.score).toBe(0.9);
      expect(graded.judge.providers).toEqual({ "local:qwen3-8b": "local" });
      expect(graded.judges.map((j) => [j.model, j.provider])).toEqual([
        ["local:qwen3-8b", "local"],
      ]);
      expect(graded.calls.map((c) => [c.model, c.provider])).toEqual([["local:qwen3-8b", "local"]]);
      const sent = local.requests.slice(before);
      expect(sent.map((r) => [r.model, r.headers.authorization])).toEqual([
        ["qwen3-8b", `Bearer ${KEY}`],
      ]);

      const deferred = results.get("claude judge")!;
      expect(deferred.status).toBe("deferred");
      expect(deferred.note).toMatch(/no judge key: set ANTHROPIC_API_KEY/);
    });

    it("a stored suite whose providers: block differs from the server's is judged with the server's (its address and variable are never used)", async () => {
      const before = local.requests.length;
      // (Another response than the first test's, so the judge cache does not answer.)
      // As if queued around the Run button's check: another address, and the server's database URL as the key.
      const yaml = `providers:\n  local: { type: openai, base_url: "${elsewhere.url}", api_key_env: DATABASE_URL }\n  other: { type: openai, base_url: "${elsewhere.url}" }\nevals:\n${evalOf("local judge", "local:qwen3-8b", "Refunds take a week.")}${evalOf("other judge", "other:qwen3-8b")}`;
      const results = await runFromDashboard(yaml);
      expect(results.get("local judge")!.status).toBe("passed");
      expect(local.requests.slice(before).map((r) => r.headers.authorization)).toEqual([
        `Bearer ${KEY}`,
      ]);
      expect(results.get("other judge")!.status).toBe("deferred");
      expect(results.get("other judge")!.note).toMatch(/unknown provider "other"/);
      expect(elsewhere.requests).toHaveLength(0);
    });

    it("stores no trace of the server's key when its endpoint echoes it back", async () => {
      const yaml = `providers:\n  local: { type: openai, base_url: "${local.url}", api_key_env: RS_LOCAL_KEY }\nevals:\n${evalOf("echoing judge", "local:echo")}`;
      const results = await runFromDashboard(yaml);
      const result = results.get("echoing judge")!;
      expect(result.status).toBe("judge_error");
      expect(result.reason).toContain("Incorrect API key provided: [REDACTED]");
      const stored = JSON.stringify(await database.prisma.evalResultRow.findMany());
      expect(stored).not.toContain("0123456789abcdef");
    });
  },
);
