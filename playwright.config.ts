import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { defineConfig } from "@playwright/test";

// Browser tests against the built app (`next build`, then `npm start`: the
// embedded database on a temporary data folder, migrated, with its queue
// worker). Specs seed data through the real CLI, which finds that database
// through the same data folder. Debian's chromium, never a downloaded one
// (STACK.md); the flags keep it from calling out into the closed network.
//
// The data folder is made once, in the main process: workers inherit the
// environment, so every process agrees on it.
process.env.E2E_DATA_DIR ??= path.join(mkdtempSync(path.join(os.tmpdir(), "rs-e2e-")), "pglite");
process.env.E2E_KEYED_DATA_DIR ??= path.join(
  mkdtempSync(path.join(os.tmpdir(), "rs-e2e-keyed-")),
  "pglite",
);
// Where the stand-in judge (anchor-judge-main.ts) keeps its count of requests.
process.env.E2E_JUDGE_CALLS ??= path.join(
  mkdtempSync(path.join(os.tmpdir(), "rs-e2e-judge-")),
  "calls",
);
// The main dashboard's model providers (RUBRIC_STUDIO_PROVIDERS): a local
// OpenAI-compatible server whose key is set, for the plan panel's provider column.
process.env.E2E_PROVIDERS ??= path.join(
  mkdtempSync(path.join(os.tmpdir(), "rs-e2e-providers-")),
  "providers.yaml",
);
writeFileSync(
  process.env.E2E_PROVIDERS,
  'providers:\n  local: { type: openai, base_url: "http://127.0.0.1:9/v1", api_key_env: E2E_LOCAL_KEY }\n',
);
const PORT = Number(process.env.E2E_PORT ?? 3100);
// A second dashboard that has a judge key, pointed at a stand-in Messages API
// (test/e2e/anchor-judge-main.ts): for what needs the server's judge ("Check
// anchors", "Run calibration"). The main one keeps no key, as the other specs expect.
const KEYED_PORT = PORT + 100;
const JUDGE_PORT = PORT + 200;
process.env.E2E_KEYED_URL = `http://127.0.0.1:${KEYED_PORT}`;

export default defineConfig({
  testDir: "test/e2e",
  testMatch: "**/*.spec.ts",
  // One server, one database: specs run one at a time.
  workers: 1,
  fullyParallel: false,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [["list"]],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    launchOptions: {
      executablePath: "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
  // Started in this order, one after the other: the build comes first.
  webServer: [
    {
      command: `${process.env.E2E_SKIP_BUILD ? "" : "npx next build && "}npx tsx scripts/serve.ts start --port ${PORT}`,
      url: `http://127.0.0.1:${PORT}/runs`,
      timeout: 600_000,
      reuseExistingServer: false,
      stdout: "pipe",
      env: {
        RUBRIC_STUDIO_DATA_DIR: process.env.E2E_DATA_DIR,
        ANTHROPIC_API_KEY: "",
        DATABASE_URL: "",
        NEXT_TELEMETRY_DISABLED: "1",
        RUBRIC_STUDIO_PROVIDERS: process.env.E2E_PROVIDERS,
        E2E_LOCAL_KEY: "sk-e2e-local-key",
      },
    },
    {
      command: `npx tsx test/e2e/anchor-judge-main.ts --port ${JUDGE_PORT}`,
      port: JUDGE_PORT,
      timeout: 60_000,
      reuseExistingServer: false,
    },
    {
      command: `npx tsx scripts/serve.ts start --port ${KEYED_PORT}`,
      url: `http://127.0.0.1:${KEYED_PORT}/runs`,
      timeout: 120_000,
      reuseExistingServer: false,
      stdout: "pipe",
      env: {
        RUBRIC_STUDIO_DATA_DIR: process.env.E2E_KEYED_DATA_DIR,
        ANTHROPIC_API_KEY: "sk-ant-e2e",
        ANTHROPIC_BASE_URL: `http://127.0.0.1:${JUDGE_PORT}`,
        DATABASE_URL: "",
        NEXT_TELEMETRY_DISABLED: "1",
      },
    },
  ],
});
