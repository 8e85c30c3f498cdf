import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// A test may call route handlers the way Next does; the rule keeps lib/ and components/ off app/.
/* eslint-disable no-restricted-imports */
import { POST as checkAnchors } from "../../../app/api/calibration/check/route";
import { POST as calibrate } from "../../../app/api/suites/[id]/calibrations/route";
/* eslint-enable no-restricted-imports */
import type { AnchorCheck } from "../../../lib/engine/check-anchors";
import { createCalibrationStore } from "../../../lib/store/calibration-store";
import { createSuiteStore } from "../../../lib/store/suite-store";
import { resetSuiteWorkers } from "../../../lib/offthread/suite-workers";
import { readEnv } from "../../../lib/env/read-env";
import { dashboardProviders, serverCanJudge } from "../../../lib/judge/server-providers";
import { startFakeOpenAIApi, type FakeOpenAIApi } from "../../support/fake-openai-api";
import { useTestDatabase } from "../../support/test-database";

// The editor's Check anchors and the calibration view's Run calibration judge
// with the server's providers, as the Run button's runs do: an openai: model
// through OPENAI_API_KEY and OPENAI_BASE_URL, a model of a provider the server
// defines (RUBRIC_STUDIO_PROVIDERS) at that provider's address, with no
// Anthropic key anywhere. A suite's own providers: entry that the server does
// not define is refused: its base_url is never called.

const db = useTestDatabase();
const holder = globalThis as typeof globalThis & {
  __rubricStudioPrisma?: { $disconnect(): Promise<void> };
};
const NAMES = [
  "DATABASE_URL",
  "ANTHROPIC_API_KEY",
  "OPENAI_API_KEY",
  "OPENAI_BASE_URL",
  "RUBRIC_STUDIO_PROVIDERS",
] as const;
const saved = Object.fromEntries(NAMES.map((n) => [n, process.env[n]]));
// Shorter than any credential shape: only its value gives it away.
const OPENAI_KEY = "sk-test-openai";
let openai: FakeOpenAIApi;
let local: FakeOpenAIApi;
let elsewhere: FakeOpenAIApi;
let dir: string;

const post = (url: string, body: unknown) =>
  new Request(`http://127.0.0.1${url}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });

beforeAll(async () => {
  openai = await startFakeOpenAIApi({
    respond: (r) =>
      // A gateway that quotes the key it was sent back in its 401.
      r.model === "gpt-echo"
        ? {
            status: 401,
            body: { error: { message: `Incorrect API key provided: ${OPENAI_KEY}` } },
          }
        : { verdict: { reasoning: "states the window", score: 0.75 } },
  });
  local = await startFakeOpenAIApi({
    respond: () => ({ verdict: { reasoning: "local says so", score: 0.25 } }),
  });
  elsewhere = await startFakeOpenAIApi();
  dir = await mkdtemp(path.join(os.tmpdir(), "rs-calibration-providers-"));
  const file = path.join(dir, "providers.yaml");
  await writeFile(file, `providers:\n  local: { type: openai, base_url: "${local.url}" }\n`);
  process.env.DATABASE_URL = db.url;
  process.env.RUBRIC_STUDIO_PROVIDERS = file;
  process.env.OPENAI_API_KEY = OPENAI_KEY;
  process.env.OPENAI_BASE_URL = openai.url;
  delete process.env.ANTHROPIC_API_KEY;
});
afterAll(async () => {
  await resetSuiteWorkers();
  await holder.__rubricStudioPrisma?.$disconnect();
  delete holder.__rubricStudioPrisma;
  await Promise.all([openai?.close(), local?.close(), elsewhere?.close()]);
  if (dir) await rm(dir, { recursive: true, force: true });
  for (const name of NAMES) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
});

const suite = (model: string, providers = "") => `${providers}evals:
  - name: refund answer
    response: "Refunds take 5 days."
    judge: { model: ${model} }
    rubric:
      criteria:
        - name: window
          description: "States how long a refund takes."
          examples:
            - { response: "Refunds take 5 days.", score: 1.0 }
            - { response: "Contact support.", score: 0.0 }
`;

async function checked(yaml: string): Promise<AnchorCheck> {
  const response = await checkAnchors(post("/api/calibration/check", { yaml }));
  expect(response.status).toBe(200);
  return (await response.json()) as AnchorCheck;
}

describe("Check anchors on the server's providers", () => {
  it("an openai: judge model is graded by the OpenAI-compatible endpoint, not deferred for want of an Anthropic key", async () => {
    const before = openai.requests.length;
    const check = await checked(suite("openai:gpt-4.1-mini"));
    expect(check.ok).toBe(true);
    if (!check.ok) return;
    expect(check.anchors.map((a) => [a.label, a.judged])).toEqual([
      [1, 0.75],
      [0, 0.75],
    ]);
    expect(check.anchors[0]!.reasoning).toBe("states the window");
    expect(openai.requests.slice(before).map((r) => r.model)).toEqual([
      "gpt-4.1-mini",
      "gpt-4.1-mini",
    ]);
  });

  it("a key the endpoint echoes in its error does not reach the browser", async () => {
    const response = await checkAnchors(
      post("/api/calibration/check", { yaml: suite("openai:gpt-echo") }),
    );
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text).toContain("Incorrect API key provided: [REDACTED]");
    expect(text).not.toContain(OPENAI_KEY);
  });

  it("a model of a provider the server defines goes to the server's address for it", async () => {
    const check = await checked(
      suite("local:qwen3-8b", `providers:\n  local: { type: openai, base_url: "${local.url}" }\n`),
    );
    expect(check.ok && check.anchors.map((a) => a.judged)).toEqual([0.25, 0.25]);
    expect(local.requests.map((r) => r.model)).toEqual(["qwen3-8b", "qwen3-8b"]);
  });

  it("a suite's own provider at another address is refused at its line: nothing is sent there", async () => {
    const check = await checked(
      suite(
        "rogue:qwen3-8b",
        `providers:\n  rogue: { type: openai, base_url: "${elsewhere.url}" }\n`,
      ),
    );
    expect(check.ok).toBe(false);
    if (check.ok) return;
    expect(check.issues[0]).toMatchObject({ line: 2 });
    expect(check.issues[0]!.message).toMatch(/^provider "rogue" is not defined on this server/);
    expect(elsewhere.requests).toHaveLength(0);
  });

  it("a model whose provider has no key on the server defers, with the reason, and sends nothing", async () => {
    const check = await checked(suite("claude-haiku-4-5"));
    expect(check.ok && check.anchors.map((a) => [a.judged, a.reasoning])).toEqual([
      [null, "deferred: no judge key: set ANTHROPIC_API_KEY to grade for real"],
      [null, "deferred: no judge key: set ANTHROPIC_API_KEY to grade for real"],
    ]);
  });
});

describe("whether the Anchors panel can check at all", () => {
  it("yes with only an OpenAI key, or a provider that needs none; no without any", async () => {
    const settings = readEnv();
    if (!settings.ok) throw new Error(settings.message);
    const here = await dashboardProviders(settings.value);
    expect(here.ok && serverCanJudge(here.value)).toBe(true);
    expect(serverCanJudge({ providers: {}, keysSet: ["OPENAI_API_KEY"] })).toBe(true);
    expect(
      serverCanJudge({ providers: { local: { type: "openai", baseUrl: local.url } }, keysSet: [] }),
    ).toBe(true);
    expect(
      serverCanJudge({
        providers: { proxy: { type: "openai", baseUrl: local.url, apiKeyEnv: "PROXY_KEY" } },
        keysSet: [],
      }),
    ).toBe(false);
  });
});

describe("Run calibration on the server's providers", () => {
  it(
    "calibrates the saved suite with its openai: judge model and stores the verdicts",
    { timeout: 60_000 },
    async () => {
      const created = await createSuiteStore(db.prisma).createSuite({
        name: "openai calibration",
        yaml: suite("openai:gpt-4.1-mini"),
      });
      if (!created.ok) throw new Error(created.message);
      const before = openai.requests.length;
      const response = await calibrate(post(`/api/suites/${created.value.id}/calibrations`, {}), {
        params: Promise.resolve({ id: created.value.id }),
      });
      expect(response.status).toBe(201);
      const latest = await createCalibrationStore(db.prisma).latestCalibration(created.value.id);
      expect(latest?.result.criteria[0]!.items.map((i) => i.judged)).toEqual([0.75, 0.75]);
      expect(openai.requests.length - before).toBe(2);
    },
  );
});
