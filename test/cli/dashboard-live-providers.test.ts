import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { liveForRun } from "../../lib/cli/live-for-run";
import { providersForRun, serverAgentEndpoints } from "../../lib/cli/providers-for-run";
import type { ProviderConfig } from "../../lib/config/provider-schema";
import type { Settings } from "../../lib/env/read-env";
import { readServerAllowList } from "../../lib/live/server-allow-list";
import { enqueueSuiteRun } from "../../lib/store/enqueue-run";
import { createRunStore } from "../../lib/store/run-store";
import { openQueue } from "../../lib/store/grade-queue";
import { startWorker } from "../../lib/store/run-worker";
import { startFakeOpenAIApi, type FakeOpenAIApi } from "../support/fake-openai-api";
import { MCP_TEST_SERVER_ARGS } from "../support/mcp-test-server";
import { chatCallThenAnswer, scriptChatAgents } from "../support/openai-agent-script";
import { useTestDatabase } from "../support/test-database";

// A dashboard run whose live agent and judge are both on a server-defined
// OpenAI-compatible provider, through the queue worker as scripts/serve.ts
// starts it: the agent calls the allow-listed MCP server through the real
// `openai` SDK with the server's key, and the judge grades its transcript.

const database = useTestDatabase();
const KEY = "sk-local-agent-0123456789";
const BOOK = {
  name: "create_event",
  input: { title: "Meeting with Alice", day: "Tuesday", time: "14:00" },
};
let local: FakeOpenAIApi;
let dir: string;

beforeAll(async () => {
  local = await startFakeOpenAIApi({
    respond: scriptChatAgents({
      agent: chatCallThenAnswer(BOOK, "Booked: Meeting with Alice, Tuesday 14:00."),
      judge: (_request, candidate) => ({
        verdict: {
          reasoning: "created and confirmed",
          score: candidate.includes("Created event evt_042") ? 0.9 : 0.1,
        },
      }),
    }),
  });
  dir = await mkdtemp(path.join(os.tmpdir(), "rs-dash-agents-"));
});
afterAll(async () => {
  await local?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const SERVER = `  calendar:\n    command: ${JSON.stringify(process.execPath)}\n    args: ${JSON.stringify(MCP_TEST_SERVER_ARGS)}\n`;

describe("a dashboard run's live agent on a server-defined provider", { timeout: 120_000 }, () => {
  it("runs the agent and the judge through the provider's endpoint with the server's key", async () => {
    const allowFile = path.join(dir, "mcp-servers.yaml");
    await writeFile(allowFile, `servers:\n${SERVER}`);
    const allowList = await readServerAllowList({ mcpServersFile: allowFile });
    if (!allowList.ok) throw new Error(allowList.message);
    const serverProviders: Record<string, ProviderConfig> = {
      local: { type: "openai", baseUrl: local.url, apiKeyEnv: "RS_LOCAL_KEY" },
    };
    const settings: Settings = { judgeModel: "claude-sonnet-4-6" };
    const env = { RS_LOCAL_KEY: KEY };

    const yaml = [
      "providers:",
      `  local: { type: openai, base_url: "${local.url}", api_key_env: RS_LOCAL_KEY }`,
      "servers:",
      SERVER.trimEnd(),
      "judge: { model: local:qwen3-8b }",
      "evals:",
      "  - name: books the meeting",
      "    server: calendar",
      '    prompt: "Book a meeting with Alice next Tuesday at 2pm."',
      '    rubric: "Created the event on Tuesday and confirmed it."',
      "    agent: { model: local:qwen3-8b, max_tokens: 512 }",
      "",
    ].join("\n");
    const prisma = database.prisma;
    const { suiteId } = await createRunStore(prisma).saveSuiteVersion({
      name: `agents ${Math.random()}`,
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
      providersFor: providersForRun({ settings, env, serverProviders, timeoutSeconds: 20 }),
      concurrency: 4,
      judgeModel: "claude-sonnet-4-6",
      toolVersion: "0.0.0-test",
      liveFor: liveForRun({
        settings,
        allowList: allowList.value,
        timeoutSeconds: 20,
        agentEndpoints: serverAgentEndpoints({
          settings,
          env,
          serverProviders,
          timeoutSeconds: 20,
        }),
      }),
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
    } finally {
      await worker.stop();
      await boss.stop({ graceful: true });
    }
    const [result] = await createRunStore(prisma).results(started.value.runId);
    expect(result!.status, result!.reason + (result!.note ?? "")).toBe("passed");
    expect(result!.score).toBe(0.9);
    expect(result!.candidate.transcript).toMatchObject({
      model: "local:qwen3-8b",
      provider: "local",
      stop: "final",
      turns: 2,
    });
    expect(result!.judges.map((j) => j.provider)).toEqual(["local"]);
    // Two agent turns and one judge call, each with the server's key.
    expect(local.requests.map((r) => r.headers.authorization)).toEqual([
      `Bearer ${KEY}`,
      `Bearer ${KEY}`,
      `Bearer ${KEY}`,
    ]);
  });
});
