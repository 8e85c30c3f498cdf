import { afterAll, beforeAll, describe, expect, it } from "vitest";
// A test may call route handlers the way Next does; the rule keeps lib/ and components/ off app/.
/* eslint-disable no-restricted-imports */
import { POST as validate } from "../../../app/api/validate/route";
import { POST as checkAnchors } from "../../../app/api/calibration/check/route";
import { GET as listSuites, POST as createSuite } from "../../../app/api/suites/route";
import { POST as runSuite } from "../../../app/api/suites/[id]/runs/route";
import { POST as calibrate } from "../../../app/api/suites/[id]/calibrations/route";
/* eslint-enable no-restricted-imports */
import { resetSuiteWorkers } from "../../../lib/offthread/suite-workers";
import { useTestDatabase } from "../../support/test-database";

// The server never blocks on a suite a browser sends: parsing, validating and
// planning run on worker threads under a time limit, so other requests are
// answered while a heavy suite is checked, and a suite that takes too long
// gets a clear 422 instead of stalling everyone (or a 500).

const db = useTestDatabase();
const holder = globalThis as typeof globalThis & {
  __rubricStudioPrisma?: { $disconnect(): Promise<void> };
};
const saved = { databaseUrl: process.env.DATABASE_URL, key: process.env.ANTHROPIC_API_KEY };

/** About 1.6 MB of valid YAML: 10,000 evals, two criteria each. Several seconds of work on one thread. */
const HEAVY = `evals:\n${Array.from({ length: 10_000 }, (_, i) => `  - name: e${i}\n    response: "r${i}"\n    rubric:\n      criteria:\n        - { name: a, description: b }\n        - { name: c, description: d, when: { regex: "x+" } }\n`).join("")}`;

const post = (url: string, body: unknown) =>
  new Request(`http://127.0.0.1${url}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });

beforeAll(() => {
  process.env.DATABASE_URL = db.url;
});
afterAll(async () => {
  await resetSuiteWorkers();
  await holder.__rubricStudioPrisma?.$disconnect();
  delete holder.__rubricStudioPrisma;
  for (const [name, value] of [
    ["DATABASE_URL", saved.databaseUrl],
    ["ANTHROPIC_API_KEY", saved.key],
  ] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

/**
 * How long a GET /api/suites takes, asked while `busy` is in flight; whether
 * `busy` was still running when it answered; and how long `busy` took in all.
 * On the main thread the list would wait for the whole check, so it is judged
 * against the check's own time, which holds on a loaded machine too.
 */
async function listWhile(
  busy: Promise<Response>,
): Promise<{ ms: number; busyStillRunning: boolean; busyMs: () => Promise<number> }> {
  let done = false;
  const busyStarted = performance.now();
  const busyEnded = busy.then(() => {
    done = true;
    return performance.now() - busyStarted;
  });
  // Let the busy request read its body and start its work.
  await new Promise((resolve) => setTimeout(resolve, 50));
  const started = performance.now();
  const response = await listSuites();
  const ms = performance.now() - started;
  expect(response.status).toBe(200);
  return { ms, busyStillRunning: !done, busyMs: () => busyEnded };
}

describe("suites from the browser are checked off the main thread", () => {
  it("answers other requests promptly while /api/validate checks a heavy suite, then answers the check", async () => {
    await resetSuiteWorkers({ timeLimitMs: 120_000 });
    const busy = validate(post("/api/validate", { yaml: HEAVY }));
    const list = await listWhile(busy);
    expect(list.busyStillRunning).toBe(true);
    expect(list.ms).toBeLessThan((await list.busyMs()) / 3);
    const response = await busy;
    expect(response.status).toBe(200);
    expect((await response.json()) as { plan: { cells: number } }).toMatchObject({
      issues: [],
      plan: { cells: 10_000 },
    });
  });

  it("stops a check that passes the time limit and says so with a 422, while other requests are served", async () => {
    await resetSuiteWorkers({ timeLimitMs: 300 });
    const busy = validate(post("/api/validate", { yaml: HEAVY }));
    expect((await listWhile(busy)).ms).toBeLessThan(1_000);
    const response = await busy;
    expect(response.status).toBe(422);
    const body = (await response.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("too_complex");
    expect(body.error.message).toMatch(
      /^Checking this suite took longer than 0\.3 s, so the server stopped/,
    );
    // The stopped thread is replaced: the next small suite is checked as usual.
    const small = await validate(
      post("/api/validate", { yaml: "evals:\n  - name: a\n    response: r\n    rubric: x\n" }),
    );
    expect(small.status).toBe(200);
  });

  it("applies the same limit to Check anchors, the Run button and Run calibration", async () => {
    await resetSuiteWorkers({ timeLimitMs: 300 });
    process.env.ANTHROPIC_API_KEY = "sk-ant-test-key";
    const anchors = await checkAnchors(post("/api/calibration/check", { yaml: HEAVY }));
    expect(anchors.status).toBe(422);
    const created = await createSuite(post("/api/suites", { name: "heavy", yaml: HEAVY }));
    const { id } = (await created.json()) as { id: string };
    const run = await runSuite(post(`/api/suites/${id}/runs`, { yaml: HEAVY }), {
      params: Promise.resolve({ id }),
    });
    expect(run.status).toBe(422);
    expect(((await run.json()) as { error: { message: string } }).error.message).toContain(
      "took longer than",
    );
    // Run calibration loads the saved version, which came from a browser too.
    const calibration = await calibrate(post(`/api/suites/${id}/calibrations`, {}), {
      params: Promise.resolve({ id }),
    });
    expect(calibration.status).toBe(422);
  });
});

describe("request bodies are bounded", () => {
  it.each([
    ["6 MB", 6],
    ["12 MB (past Next's own 10 MB cut)", 12],
  ])("answers a %s body with 413 and a JSON error that says the limit", async (_label, mb) => {
    const response = await validate(post("/api/validate", { yaml: "x".repeat(mb * 1024 * 1024) }));
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({
      error: {
        code: "too_large",
        message: "The request body is larger than 5 MB (a suite may be at most 2 MB).",
      },
    });
  });

  it("stops reading a streamed body without a length as soon as it passes the limit", async () => {
    let sent = 0;
    const chunk = new TextEncoder().encode("x".repeat(1024 * 1024));
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        sent++;
        controller.enqueue(chunk);
      },
    });
    const request = new Request("http://127.0.0.1/api/validate", {
      method: "POST",
      body: stream,
      duplex: "half",
    } as RequestInit);
    const response = await validate(request);
    expect(response.status).toBe(413);
    expect(sent).toBeLessThan(10);
  });

  it("still answers a 2.5 MB suite with the suite's own limit", async () => {
    const response = await validate(post("/api/validate", { yaml: "x".repeat(2.5 * 1024 * 1024) }));
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { message: string } }).error.message).toBe(
      "yaml: The suite is larger than 2 MB.",
    );
  });
});
