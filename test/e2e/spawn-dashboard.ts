import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { freePort } from "../../lib/store/embedded-postgres";
import {
  startFakeMessagesApi,
  type FakeMessagesApi,
  type FakeMessagesApiOptions,
} from "../support/fake-messages-api";

// A second dashboard for the specs that need one set up differently from the
// config's web server (bound off loopback with a password, or with a judge
// key and a slow stand-in): `npm start`'s own script, on the build the config
// made, with a fresh embedded database. Stopped with SIGTERM, which it passes
// on to next.

export interface SpawnedDashboard {
  url: string;
  output(): string;
  stop(): Promise<void>;
}

/** This machine's first IPv4 address that is not loopback, if it has one. */
export function nonLoopbackAddress(): string | undefined {
  for (const addresses of Object.values(os.networkInterfaces())) {
    for (const a of addresses ?? []) if (a.family === "IPv4" && !a.internal) return a.address;
  }
  return undefined;
}

export async function spawnDashboard(input: {
  host: string;
  reachAt?: string;
  env: Record<string, string>;
}): Promise<SpawnedDashboard> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "rs-e2e-spawned-"));
  const port = await freePort();
  let log = "";
  const child: ChildProcess = spawn(
    process.execPath,
    ["--import", "tsx", "scripts/serve.ts", "start", "--host", input.host, "--port", String(port)],
    {
      env: {
        ...process.env,
        DATABASE_URL: "",
        ANTHROPIC_API_KEY: "",
        NEXT_TELEMETRY_DISABLED: "1",
        RUBRIC_STUDIO_DATA_DIR: path.join(dir, "pglite"),
        ...input.env,
      },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  child.stdout?.on("data", (chunk: Buffer) => (log += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (log += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const url = `http://${input.reachAt ?? input.host}:${port}`;
  const stop = async () => {
    if (child.exitCode === null) child.kill("SIGTERM");
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 15_000))]);
    if (child.exitCode === null) child.kill("SIGKILL");
    await rm(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null)
      throw new Error(`the dashboard exited with ${child.exitCode}:\n${log}`);
    const answered = await fetch(`${url}/login`, { redirect: "manual" }).then(
      () => true,
      () => false,
    );
    if (answered) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`the dashboard did not answer on ${url} within 90 s:\n${log}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return { url, output: () => log, stop };
}

/**
 * A dashboard whose worker grades for real through a Messages API stand-in
 * (the judge key set, the base URL pointing at it): what the run-page specs
 * set up in their beforeAll. `stop` stops both.
 */
export async function spawnGradingDashboard(
  options: FakeMessagesApiOptions,
): Promise<{ api: FakeMessagesApi; dashboard: SpawnedDashboard; stop(): Promise<void> }> {
  const api = await startFakeMessagesApi(options);
  const dashboard = await spawnDashboard({
    host: "127.0.0.1",
    env: { ANTHROPIC_API_KEY: "sk-ant-test-0123456789", ANTHROPIC_BASE_URL: api.url },
  }).catch(async (error: unknown) => {
    await api.close();
    throw error;
  });
  return {
    api,
    dashboard,
    stop: async () => {
      await dashboard.stop();
      await api.close();
    },
  };
}
