import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// A test may call route handlers the way Next does; the rule keeps lib/ and components/ off app/.
/* eslint-disable no-restricted-imports */
import { POST as validate } from "../../../app/api/validate/route";
import { POST as createSuite } from "../../../app/api/suites/route";
import { POST as runSuite } from "../../../app/api/suites/[id]/runs/route";
/* eslint-enable no-restricted-imports */
import type { ConfigIssue } from "../../../lib/config/types";
import type { DraftPlan } from "../../../lib/engine/plan/check-draft";
import { resetSuiteWorkers } from "../../../lib/offthread/suite-workers";
import { startFakeOpenAIApi, type FakeOpenAIApi } from "../../support/fake-openai-api";
import { useTestDatabase } from "../../support/test-database";

// Providers in the dashboard (issue 11): the server defines them
// (RUBRIC_STUDIO_PROVIDERS), and a suite written in the browser may declare a
// provider only as the server does. A suite that tries to make the server read
// another variable as a key, or send a key to another address, gets a located
// error in the editor and at the Run button; nothing is queued, and no request
// leaves. The plan panel shows each model's provider, and never a key.

const db = useTestDatabase();
const holder = globalThis as typeof globalThis & {
  __rubricStudioPrisma?: { $disconnect(): Promise<void> };
};
const SECRET = "sk-local-secret-0123456789";
const NAMES = [
  "DATABASE_URL",
  "ANTHROPIC_API_KEY",
  "RUBRIC_STUDIO_PROVIDERS",
  "RS_TEST_LOCAL_KEY",
] as const;
const saved = Object.fromEntries(NAMES.map((n) => [n, process.env[n]]));
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
  local = await startFakeOpenAIApi();
  elsewhere = await startFakeOpenAIApi();
  dir = await mkdtemp(path.join(os.tmpdir(), "rs-providers-"));
  const file = path.join(dir, "providers.yaml");
  await writeFile(
    file,
    `providers:\n  local: { type: openai, base_url: "${local.url}", api_key_env: RS_TEST_LOCAL_KEY }\n`,
  );
  process.env.DATABASE_URL = db.url;
  process.env.RUBRIC_STUDIO_PROVIDERS = file;
  process.env.RS_TEST_LOCAL_KEY = SECRET;
  delete process.env.ANTHROPIC_API_KEY;
});
afterAll(async () => {
  await resetSuiteWorkers();
  await holder.__rubricStudioPrisma?.$disconnect();
  delete holder.__rubricStudioPrisma;
  await local?.close();
  await elsewhere?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
  for (const name of NAMES) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
});

const suite = (providers: string) => `providers:
${providers}
evals:
  - name: refund answer
    response: "Refunds take 5 days."
    rubric: "States how long a refund takes."
    judge:
      panel: [claude-haiku-4-5, local:qwen3-8b]
`;

const EXACT = `  local: { type: openai, base_url: "${"URL"}", api_key_env: RS_TEST_LOCAL_KEY }`;
const exact = () => EXACT.replace("URL", local.url);

async function check(
  yaml: string,
): Promise<{ issues: ConfigIssue[]; plan: DraftPlan | null; text: string }> {
  const response = await validate(post("/api/validate", { yaml }));
  expect(response.status).toBe(200);
  const text = await response.text();
  return { ...(JSON.parse(text) as { issues: ConfigIssue[]; plan: DraftPlan | null }), text };
}

describe("providers in the dashboard", () => {
  it("an api_key_env the server does not define is an error at that field: the server's variables stay unread", async () => {
    const yaml = suite(
      `  local: { type: openai, base_url: "${local.url}", api_key_env: DATABASE_URL }`,
    );
    const { issues, plan } = await check(yaml);
    expect(plan).toBeNull();
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({
      line: 2,
      column: yaml.split("\n")[1]!.indexOf("DATABASE_URL") + 1,
      severity: "error",
      path: ["providers", "local", "api_key_env"],
    });
    expect(issues[0]!.message).toMatch(
      /api_key_env must be "RS_TEST_LOCAL_KEY", as this server defines it \(a suite cannot choose which of the server's environment variables is read as a key\)/,
    );
  });

  it("a provider the server does not define (another address) is an error at its entry, also at the Run button: nothing queued, no request sent", async () => {
    const yaml = suite(
      `  local: { type: openai, base_url: "${elsewhere.url}", api_key_env: RS_TEST_LOCAL_KEY }\n  evil: { type: openai, base_url: "${elsewhere.url}" }`,
    );
    const { issues } = await check(yaml);
    expect(issues.map((i) => [i.line, i.path.join(".")])).toEqual([
      [2, "providers.local.base_url"],
      [3, "providers.evil"],
    ]);
    expect(issues[0]!.message).toContain(
      `provider "local": base_url must be "${local.url}", as this server defines it (a suite cannot send the server's key to another address)`,
    );
    expect(issues[1]!.message).toMatch(
      /^provider "evil" is not defined on this server: a suite run from the dashboard may use only the server's providers \(anthropic, openai, local\)/,
    );

    const created = await createSuite(
      post("/api/suites", { name: "providers", yaml: suite(exact()) }),
    );
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const run = await runSuite(post(`/api/suites/${id}/runs`, { yaml }), {
      params: Promise.resolve({ id }),
    });
    expect(run.status).toBe(400);
    expect(((await run.json()) as { error: { message: string } }).error.message).toMatch(
      /^The suite does not load: line 2: provider "local": base_url must be/,
    );
    expect(await db.prisma.run.count({ where: { suiteId: id } })).toBe(0);
    expect(local.requests).toHaveLength(0);
    expect(elsewhere.requests).toHaveLength(0);
  });

  it("a provider declared as the server defines it plans, each model shown with its provider (no key on the server: defers), and no key in the answer", async () => {
    const { issues, plan, text } = await check(suite(exact()));
    expect(issues).toEqual([]);
    expect(plan!.models).toEqual([
      {
        model: "claude-haiku-4-5",
        role: "judge",
        provider: "anthropic",
        providerModel: "claude-haiku-4-5",
        unavailable: "no judge key: set ANTHROPIC_API_KEY to grade for real",
      },
      { model: "local:qwen3-8b", role: "judge", provider: "local", providerModel: "qwen3-8b" },
    ]);
    expect(plan!.deferred).toEqual([
      { name: "refund answer", reason: "no judge key: set ANTHROPIC_API_KEY to grade for real" },
    ]);
    expect(text).not.toContain(SECRET);
    expect(local.requests).toHaveLength(0);
  });
});
