import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadServerAllowList } from "../../lib/config/load-server-allow-list";
import { liveForRun } from "../../lib/cli/live-for-run";
import { readServerAllowList, type ServerAllowList } from "../../lib/live/server-allow-list";
import type { Settings } from "../../lib/env/read-env";
import { createAnthropicJudge } from "../../lib/judge/anthropic-judge";
import { enqueueSuiteRun } from "../../lib/store/enqueue-run";
import { createRunStore } from "../../lib/store/run-store";
import { openQueue } from "../../lib/store/grade-queue";
import { startWorker } from "../../lib/store/run-worker";
import type { EvalResult } from "../../lib/engine/results/report";
import { callThenAnswer, scriptAgents } from "../support/agent-script";
import { startFakeMessagesApi, type FakeMessagesApi } from "../support/fake-messages-api";
import { MCP_TEST_SERVER_ARGS } from "../support/mcp-test-server";
import { useTestDatabase } from "../support/test-database";

// The dashboard's MCP allow-list, end to end through the queue worker: a run
// queued as the Run button queues it, graded by a worker whose live port
// comes from liveForRun (as in scripts/serve.ts), against our MCP test server
// and the Messages API stand-in. Only the allow-listed server, with exactly
// its listed command and args, is started; the rest defer with the reason.

const database = useTestDatabase();
let api: FakeMessagesApi;
let dir: string;

beforeAll(async () => {
  api = await startFakeMessagesApi({
    respond: scriptAgents({
      agent: callThenAnswer(
        { name: "get_weather", input: { city: "Paris" } },
        "It is 18C and clear in Paris.",
      ),
    }),
  });
  dir = await mkdtemp(path.join(os.tmpdir(), "rs-allow-list-"));
});
afterAll(async () => {
  await api?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const marker = (name: string) => path.join(dir, `${name}.started`);

/** A `servers:` entry running the MCP test server, which writes `marker(name)` when it starts. */
function serverEntry(name: string, args: string[] = MCP_TEST_SERVER_ARGS): string {
  return `  ${name}:\n    command: ${JSON.stringify(process.execPath)}\n    args: ${JSON.stringify(args)}\n    env: { MCP_TEST_STARTED_FILE: ${JSON.stringify(marker(name))} }\n`;
}

const liveEval = (name: string, server: string) =>
  `  - name: ${name}\n    server: ${server}\n    prompt: "What is the weather in Paris?"\n    rubric: "States the temperature the tool reported."\n`;

const settings = (): Settings => ({
  anthropicApiKey: "sk-ant-test-0123456789",
  anthropicBaseUrl: api.url,
  judgeModel: "claude-sonnet-4-6",
});

async function runFromDashboard(
  yaml: string,
  allowList: ServerAllowList | undefined,
): Promise<Map<string, EvalResult>> {
  const prisma = database.prisma;
  const { suiteId } = await createRunStore(prisma).saveSuiteVersion({
    name: `live ${Math.random()}`,
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
    judge: createAnthropicJudge({
      apiKey: "sk-ant-test-0123456789",
      baseURL: api.url,
      timeoutMs: 10_000,
    }),
    priceOf: () => undefined,
    concurrency: 4,
    judgeModel: "claude-sonnet-4-6",
    toolVersion: "0.0.0-test",
    liveFor: liveForRun({ settings: settings(), allowList, timeoutSeconds: 20 }),
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

describe("the dashboard's MCP allow-list", { timeout: 120_000 }, () => {
  it("starts only the listed server with its listed command; a changed command or an unlisted server defers, and is never started", async () => {
    const allowFile = path.join(dir, "mcp-servers.yaml");
    await writeFile(allowFile, `servers:\n${serverEntry("weather")}${serverEntry("tampered")}`);
    const read = await readServerAllowList({ mcpServersFile: allowFile });
    expect(read.ok).toBe(true);
    if (!read.ok) return;

    const pwned = path.join(dir, "pwned");
    const yaml = [
      "servers:",
      // Listed, exactly as listed (a suite may still choose its timeouts).
      `${serverEntry("weather").trimEnd()}\n    tool_timeout_seconds: 15`,
      // A listed name with another command: must not run.
      serverEntry("tampered", [
        "-e",
        `require("node:fs").writeFileSync(${JSON.stringify(pwned)}, "x")`,
      ]).trimEnd(),
      serverEntry("unlisted").trimEnd(),
      "evals:",
      liveEval("allowed weather", "weather"),
      liveEval("tampered weather", "tampered"),
      liveEval("unlisted weather", "unlisted"),
    ].join("\n");
    const results = await runFromDashboard(yaml, read.value);

    const allowed = results.get("allowed weather")!;
    expect(allowed.status).toBe("passed");
    expect(allowed.candidate.response).toBe("It is 18C and clear in Paris.");
    expect(
      allowed.candidate.transcript?.entries.some(
        (e) => e.kind === "tool_call" && e.name === "get_weather",
      ),
    ).toBe(true);
    expect(existsSync(marker("weather"))).toBe(true);

    const tampered = results.get("tampered weather")!;
    expect(tampered.status).toBe("deferred");
    expect(tampered.note).toMatch(
      /server "tampered" is not allowed here: its configuration differs from the one this deployment allows/,
    );
    expect(existsSync(pwned)).toBe(false);
    expect(existsSync(marker("tampered"))).toBe(false);

    const unlisted = results.get("unlisted weather")!;
    expect(unlisted.status).toBe("deferred");
    expect(unlisted.note).toMatch(
      /server "unlisted" is not allowed here: it is not among the servers this deployment allows \(weather, tampered\)/,
    );
    expect(existsSync(marker("unlisted"))).toBe(false);
  });

  it("without an allow-list, a dashboard run starts no server and says how to allow one", async () => {
    const yaml = [
      "servers:",
      serverEntry("solo").trimEnd(),
      "evals:",
      liveEval("solo weather", "solo"),
    ].join("\n");
    const results = await runFromDashboard(yaml, undefined);
    const solo = results.get("solo weather")!;
    expect(solo.status).toBe("deferred");
    expect(solo.note).toMatch(/RUBRIC_STUDIO_MCP_SERVERS/);
    expect(existsSync(marker("solo"))).toBe(false);
  });
});

describe("reading the allow-list file", () => {
  it("has the shape of a suite's servers: block, and says where a mistake is", () => {
    const ok = loadServerAllowList({
      text: "servers:\n  calendar:\n    command: node\n    args: [mcp-server.mjs]\n  remote:\n    url: http://127.0.0.1:9000/mcp\n",
      file: "mcp.yaml",
    });
    expect(ok).toEqual({
      ok: true,
      value: {
        calendar: {
          kind: "stdio",
          command: "node",
          args: ["mcp-server.mjs"],
          env: {},
          cwd: undefined,
          startTimeoutSeconds: 30,
          toolTimeoutSeconds: 60,
        },
        remote: {
          kind: "http",
          url: "http://127.0.0.1:9000/mcp",
          headers: {},
          startTimeoutSeconds: 30,
          toolTimeoutSeconds: 60,
        },
      },
    });
    const bad = loadServerAllowList({
      text: "servers:\n  calendar:\n    comand: node\n",
      file: "mcp.yaml",
    });
    expect(bad.ok).toBe(false);
    if (!bad.ok)
      expect(bad.issues[0]).toMatchObject({
        file: "mcp.yaml",
        line: 3,
        message: "a server needs either command (stdio) or url (Streamable HTTP)",
      });
    const stray = loadServerAllowList({
      text: "server:\n  calendar: { command: node }\n",
      file: "mcp.yaml",
    });
    expect(stray.ok).toBe(false);
    if (!stray.ok)
      expect(stray.issues.map((i) => i.message).join("\n")).toMatch(/unknown field "server"/);
  });

  it("reports a missing file by its path", async () => {
    const read = await readServerAllowList({ mcpServersFile: "no/such/allow-list.yaml" }, "/tmp");
    expect(read).toEqual({
      ok: false,
      message: expect.stringContaining("/tmp/no/such/allow-list.yaml"),
    });
  });
});
