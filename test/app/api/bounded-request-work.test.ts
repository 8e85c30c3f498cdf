import { afterAll, beforeAll, describe, expect, it } from "vitest";
// A test may call route handlers the way Next does; the rule keeps lib/ and components/ off app/.
/* eslint-disable no-restricted-imports */
import { POST as checkAnchors } from "../../../app/api/calibration/check/route";
import { POST as calibrate } from "../../../app/api/suites/[id]/calibrations/route";
/* eslint-enable no-restricted-imports */
import type { AnchorCheck } from "../../../lib/engine/check-anchors";
import { calibrateItem } from "../../../lib/engine/trust/calibration/calibration-stats";
import { labelScaleOf } from "../../../lib/engine/trust/people/label-scale";
import { createSuiteStore } from "../../../lib/store/suite-store";
import { resetSuiteWorkers, suiteWorkers } from "../../../lib/offthread/suite-workers";
import { releaseRouteDatabase } from "../../support/route-database";
import { startFakeOpenAIApi, type FakeOpenAIApi } from "../../support/fake-openai-api";
import { useTestDatabase } from "../../support/test-database";

// Issue 21, item 1: `scale: { likert: { min: 0, max: 30000 } }` validated, and
// Check anchors (posted as you type) built one entry per point and a
// points × points matrix on the server's main thread until it ran out of
// memory. The band is bounded in the language (a located error), and what is
// stored from before the bound is read on the unit scale, never point by point.
// The same class: a calibration grades each labelled item through the eval's
// jury and panel, a product no suite limit saw; a request of the dashboard may
// plan at most 5,000 judge calls.

const db = useTestDatabase();
const NAMES = ["DATABASE_URL", "ANTHROPIC_API_KEY", "OPENAI_API_KEY", "OPENAI_BASE_URL"] as const;
const saved = Object.fromEntries(NAMES.map((n) => [n, process.env[n]]));
let openai: FakeOpenAIApi;

beforeAll(async () => {
  openai = await startFakeOpenAIApi({
    respond: () => ({ verdict: { reasoning: "fine", score: 0.5 } }),
  });
  process.env.DATABASE_URL = db.url;
  process.env.OPENAI_API_KEY = "sk-test-openai";
  process.env.OPENAI_BASE_URL = openai.url;
  delete process.env.ANTHROPIC_API_KEY;
});
afterAll(async () => {
  await resetSuiteWorkers();
  await releaseRouteDatabase();
  await openai?.close();
  for (const name of NAMES) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
});

const post = (url: string, body: unknown) =>
  new Request(`http://127.0.0.1${url}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });

const suite = (max: number) => `evals:
  - name: wide band
    response: "Refunds take 5 days."
    judge: { model: openai:gpt-4.1-mini }
    rubric:
      scale: { likert: { min: 0, max: ${max} } }
      criteria:
        - name: window
          description: "States how long a refund takes."
          examples:
            - { response: "Refunds take 5 days.", score: 1.0 }
            - { response: "Contact support.", score: 0.0 }
`;

describe("an unbounded likert band", () => {
  it("Check anchors answers a located error at max, at once, and calls no judge", async () => {
    const before = openai.requests.length;
    const started = performance.now();
    const response = await checkAnchors(post("/api/calibration/check", { yaml: suite(30_000) }));
    const ms = performance.now() - started;
    expect(response.status).toBe(200);
    const check = (await response.json()) as AnchorCheck;
    expect(check.ok).toBe(false);
    if (check.ok) return;
    expect(check.issues).toMatchObject([
      {
        line: 6,
        column: 39,
        message:
          "a likert scale has at most 101 points: 0..30000 has 30,001 (max may be at most min + 100)",
      },
    ]);
    expect(openai.requests.length).toBe(before);
    expect(ms).toBeLessThan(5_000);
  });

  it("0..100 is still a scale (101 points)", async () => {
    const response = await checkAnchors(post("/api/calibration/check", { yaml: suite(100) }));
    const check = (await response.json()) as AnchorCheck;
    expect(check.ok && check.result.criteria[0]!.confusion.categories).toHaveLength(101);
  });

  it("Run calibration of a version saved before the bound answers the located error", async () => {
    // Saved as an older build let it be: the store keeps text as it was given.
    const created = await createSuiteStore(db.prisma).createSuite({
      name: "old wide band",
      yaml: suite(30_000),
    });
    if (!created.ok) throw new Error(created.message);
    const before = openai.requests.length;
    const started = performance.now();
    const response = await calibrate(post(`/api/suites/${created.value.id}/calibrations`, {}), {
      params: Promise.resolve({ id: created.value.id }),
    });
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.status).toBeLessThan(500);
    const body = (await response.json()) as { message?: string; error?: { message?: string } };
    expect(JSON.stringify(body)).toMatch(/6:39: error: a likert scale has at most 101 points/);
    expect(openai.requests.length).toBe(before);
  });

  it("a result stored with such a band is labelled and calibrated on the unit scale, not point by point", () => {
    const started = performance.now();
    const scale = labelScaleOf({
      rubricKind: "criteria",
      scale: { kind: "likert", min: 0, max: 3_000_000 },
    });
    expect(scale).toMatchObject({ kind: "unit" });
    expect(scale.points).toHaveLength(5);
    const item = (id: string, label: number) => ({
      id,
      source: "anchor" as const,
      text: id,
      label,
      judged: label,
      error: 0,
      outlier: false,
      reasoning: "",
    });
    const calibration = calibrateItem({
      eval: "e",
      item: "c",
      scale: "likert",
      likert: { min: 0, max: 30_000 },
      threshold: 0.7,
      items: [item("a", 0), item("b", 1)],
    });
    expect(calibration.confusion.categories).toEqual(["0.00", "0.25", "0.50", "0.75", "1.00"]);
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});

const wide = `evals:
  - name: wide jury
    response: "Refunds take 5 days."
    judge: { panel: [${Array.from({ length: 10 }, (_, i) => `openai:m${i}`).join(", ")}], jury: { size: 25 } }
    rubric:
      criteria:
        - name: window
          description: "States how long a refund takes."
          examples:
${Array.from({ length: 50 }, (_, i) => `            - { response: "answer ${i}", score: 1.0 }`).join("\n")}
`;
const TOO_MANY =
  /^calibration plans 50 labelled items × their judges = 12,500 judge calls \(eval "wide jury": 12,500\); it may plan at most 5,000: /;

describe("a calibration's labelled items × jurors × panel models", () => {
  it("Check anchors past 5,000 judge calls answers a located error at once, and calls no judge", async () => {
    const before = openai.requests.length;
    const started = performance.now();
    const response = await checkAnchors(post("/api/calibration/check", { yaml: wide, line: 8 }));
    const check = (await response.json()) as AnchorCheck;
    expect(check.ok).toBe(false);
    if (check.ok) return;
    expect(check.issues).toHaveLength(1);
    expect(check.issues[0]).toMatchObject({ line: 2, column: 5 });
    expect(check.issues[0]!.message).toMatch(TOO_MANY);
    expect(check.issues[0]!.message).toMatch(/check one criterion/);
    expect(openai.requests.length).toBe(before);
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it("Run calibration answers the same, before any call", async () => {
    const created = await createSuiteStore(db.prisma).createSuite({ name: "wide", yaml: wide });
    if (!created.ok) throw new Error(created.message);
    const before = openai.requests.length;
    const response = await calibrate(post(`/api/suites/${created.value.id}/calibrations`, {}), {
      params: Promise.resolve({ id: created.value.id }),
    });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: { message: string } };
    expect(body.error.message).toMatch(/^wide:2:5: error: calibration plans 50 labelled items/);
    expect(openai.requests.length).toBe(before);
  });

  it("Check anchors locates a draft's anchors on a worker thread, with the load (seconds of the yaml package for a large suite)", async () => {
    const located = await suiteWorkers().run({ kind: "anchors", text: wide, file: "wide.yaml" });
    expect(located.ok).toBe(true);
    if (!located.ok) return;
    expect(located.value.loaded.ok).toBe(true);
    expect(located.value.spans).toHaveLength(1);
    expect(located.value.spans[0]).toMatchObject({ eval: "wide jury", criterion: "window" });
    expect(located.value.spans[0]!.anchors).toHaveLength(50);
    expect(located.value.spans[0]!.anchors[0]).toMatchObject({ id: "1", line: 10, column: 15 });
  });
});
