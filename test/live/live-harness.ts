import { createAnthropicJudge } from "../../lib/judge/anthropic-judge";
import { createRetryingMessages } from "../../lib/judge/retrying-messages";
import { allowAllServers, type AllowServer } from "../../lib/live/allow-servers";
import { createLiveRunner } from "../../lib/live/create-live-runner";
import type { Report, EvalResult } from "../../lib/engine/results/report";
import { runSuite } from "../../lib/engine/run-suite";
import type { PriceOf } from "../../lib/engine/plan/explain-plan";
import {
  startFakeMessagesApi,
  type FakeMessagesApi,
  type FakeRespond,
} from "../support/fake-messages-api";
import { MCP_TEST_SERVER_ARGS } from "../support/mcp-test-server";
import { suiteFrom } from "../support/run-yaml";

// Live runs in this process, through the real pieces: the engine, lib/live
// with the real MCP SDK against our test server, and the real Anthropic SDK
// (judge and agent) against the Messages API stand-in on 127.0.0.1.

export type OnFinished = (fn: () => void | Promise<void>) => void;

export const AGENT_MODEL = "claude-haiku-4-5";

/** A servers: entry that runs the test server over stdio, with extra environment variables. */
export function stdioServer(name: string, env: Record<string, string> = {}, extra = ""): string {
  const envLines = Object.entries(env)
    .map(([k, v]) => `\n      ${k}: ${JSON.stringify(v)}`)
    .join("");
  return `  ${name}:\n    command: ${JSON.stringify(process.execPath)}\n    args: ${JSON.stringify(MCP_TEST_SERVER_ARGS)}${
    envLines ? `\n    env:${envLines}` : ""
  }${extra}\n`;
}

export async function startStandIn(
  onFinished: OnFinished,
  respond: FakeRespond,
): Promise<FakeMessagesApi> {
  const api = await startFakeMessagesApi({ respond });
  onFinished(() => api.close());
  return api;
}

export interface RunLiveOptions {
  api: FakeMessagesApi;
  allowServer?: AllowServer;
  baseDir?: string;
  concurrency?: number;
  maxCostUsd?: number;
  priceOf?: PriceOf;
  judgeUnavailable?: string;
  signal?: AbortSignal;
}

export async function runLive(yaml: string, options: RunLiveOptions): Promise<Report> {
  const credentials = { apiKey: "sk-ant-test-0123456789", baseURL: options.api.url };
  const judge = createAnthropicJudge({ ...credentials, timeoutMs: 10_000, sleep: async () => {} });
  const live = createLiveRunner({
    messages: createRetryingMessages({ ...credentials, timeoutMs: 10_000, sleep: async () => {} }),
    baseDir: options.baseDir ?? process.cwd(),
    allowServer: options.allowServer ?? allowAllServers,
    clientVersion: "0.0.0-test",
  });
  try {
    return await runSuite(
      {
        suite: suiteFrom(yaml),
        defaultModel: "claude-sonnet-4-6",
        defaultAgentModel: AGENT_MODEL,
        concurrency: options.concurrency ?? 4,
        toolVersion: "0.0.0-test",
        ...(options.maxCostUsd !== undefined ? { maxCostUsd: options.maxCostUsd } : {}),
        ...(options.judgeUnavailable !== undefined
          ? { judgeUnavailable: options.judgeUnavailable }
          : {}),
        ...(options.signal ? { signal: options.signal } : {}),
      },
      { judge, live, now: Date.now, priceOf: options.priceOf ?? (() => undefined) },
    );
  } finally {
    await live.close();
  }
}

export function resultNamed(report: Report, name: string): EvalResult {
  const found = report.results.find((r) => r.name === name);
  if (!found)
    throw new Error(`no result "${name}" in ${report.results.map((r) => r.name).join(", ")}`);
  return found;
}

/** Whether a process is still running. */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
