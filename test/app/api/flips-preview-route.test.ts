import { afterAll, beforeAll, describe, expect, it } from "vitest";
// A test may call a route handler the way Next does; the rule keeps lib/ and components/ off app/.
// eslint-disable-next-line no-restricted-imports
import { POST } from "../../../app/api/runs/[id]/flips-preview/route";
import type {
  FlipsPlan,
  FlipsPreview,
  FlipsPreviewLine,
} from "../../../components/authoring/flips-types";
import { planFlipsPreview, runFlipsPreview } from "../../../lib/store/flips-preview";
import { resetSuiteWorkers } from "../../../lib/offthread/suite-workers";
import { createSuiteStore } from "../../../lib/store/suite-store";
import { isJudgeRequest } from "../../support/agent-script";
import { startFakeMessagesApi, type FakeMessagesApi } from "../../support/fake-messages-api";
import { releaseRouteDatabase } from "../../support/route-database";
import { suiteFrom } from "../../support/run-yaml";
import { useTestDatabase } from "../../support/test-database";
import { forceGc } from "../../support/force-gc";
import { makeWorkspace, yaml } from "../../cli/cli-harness";

// The editor's "Flips against run…" (issue 19): a stored run (stored by the
// real CLI against the Messages API stand-in) graded again with edited text.
// Only the edited criterion is judged (counted at the stand-in), the plan says
// so beforehand, the flips are those a hand count gives, and no run is stored.

const db = useTestDatabase();
const NAMES = ["DATABASE_URL", "ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL"] as const;
const saved = Object.fromEntries(NAMES.map((n) => [n, process.env[n]]));
let api: FakeMessagesApi;
let runId: string;
let suiteId: string;

/** Two evals, each a matrix of two judge models (two cells); `window` is the criterion the test edits. */
const suite = (window: string) =>
  yaml(
    "evals:",
    "  - name: refund window",
    '    prompt: "How long do refunds take?"',
    '    response: "Refunds take about a week."',
    "    rubric:",
    "      criteria:",
    `        - { name: window, description: "${window}" }`,
    "    matrix: { models: [claude-sonnet-4-6, claude-haiku-4-5] }",
    "  - name: tone",
    '    prompt: "How long do refunds take?"',
    '    response: "Refunds take about a week."',
    "    rubric:",
    "      criteria:",
    '        - { name: polite, description: "Is polite." }',
    "    matrix: { models: [claude-sonnet-4-6, claude-haiku-4-5] }",
  );
const ORIGINAL = suite("States how long a refund takes.");
// The edit asks for business days, which "about a week" does not give: both window cells flip.
const EDITED = suite("States the refund window in business days.");

beforeAll(async () => {
  api = await startFakeMessagesApi({
    respond: (request) => {
      const strict = request.system.includes("business days");
      return {
        verdict: strict
          ? { reasoning: "No count of business days is given.", score: 0.2 }
          : { reasoning: "A week is stated.", score: 0.9 },
      };
    },
  });
  const env = { ANTHROPIC_API_KEY: "sk-ant-test", ANTHROPIC_BASE_URL: api.url };
  const ws = await makeWorkspace((fn) => afterAll(fn));
  await ws.write("refunds.yaml", ORIGINAL);
  const stored = await ws.cli(["eval", "--config", "refunds.yaml", "--reporter", "json"], {
    ...env,
    DATABASE_URL: db.url,
  });
  expect(stored.code, stored.stderr).toBe(0);
  runId = (JSON.parse(stored.stdout) as { runId: string }).runId;
  suiteId = (await db.prisma.run.findUniqueOrThrow({ where: { id: runId } })).suiteId;
  Object.assign(process.env, env, { DATABASE_URL: db.url });
}, 120_000);
afterAll(async () => {
  await resetSuiteWorkers();
  await releaseRouteDatabase();
  await api?.close();
  for (const name of NAMES) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
});

function post(id: string, body: unknown): Promise<Response> {
  const text = typeof body === "string" ? body : JSON.stringify(body);
  return POST(
    new Request(`http://127.0.0.1/api/runs/${id}/flips-preview`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: text,
    }),
    { params: Promise.resolve({ id }) },
  );
}

const messageOf = async (response: Response) =>
  ((await response.json()) as { error: { message: string } }).error.message;

async function preview(
  yamlText: string,
): Promise<{ lines: FlipsPreviewLine[]; last: FlipsPreview }> {
  const response = await post(runId, { yaml: yamlText, suiteId });
  expect(response.status).toBe(200);
  const lines = (await response.text())
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as FlipsPreviewLine);
  const last = lines.at(-1)!;
  if (!("preview" in last)) throw new Error(`no preview: ${JSON.stringify(last)}`);
  return { lines, last: last.preview };
}

describe("POST /api/runs/[id]/flips-preview", () => {
  it(
    "judges only the edited criterion, says so beforehand, returns the flips a hand count gives, stores no run",
    { timeout: 60_000 },
    async () => {
      const runsBefore = await db.prisma.run.count();
      const judged = () => api.requests.filter(isJudgeRequest);
      const asked = judged().length;
      expect(asked).toBe(4);

      // Beforehand: two calls (the edited criterion in its two cells), the other two from the cache.
      const planned = await post(runId, { yaml: EDITED, suiteId, plan: true });
      expect(planned.status).toBe(200);
      const plan = (await planned.json()) as FlipsPlan;
      expect(plan).toMatchObject({ compared: 4, calls: 2, reused: 2, gone: [], added: [] });
      expect(plan.source).toMatchObject({ runId, version: 1, status: "completed" });
      expect(judged().length).toBe(asked);

      const { lines, last } = await preview(EDITED);
      const made = judged().slice(asked);
      expect(made).toHaveLength(2);
      expect(made.every((r) => r.system.includes("business days"))).toBe(true);
      expect(new Set(made.map((r) => r.body.model))).toEqual(
        new Set(["claude-sonnet-4-6", "claude-haiku-4-5"]),
      );
      expect(lines.some((l) => "progress" in l)).toBe(true);
      // By hand: both window cells passed at 0.90 and now fail at 0.20; both tone cells keep passing.
      expect(last.flips.map((f) => [f.eval, f.previous.status, f.now.status, f.now.score])).toEqual(
        [
          ["refund window", "passed", "failed", 0.2],
          ["refund window", "passed", "failed", 0.2],
        ],
      );
      expect(new Set(last.flips.map((f) => f.cell))).toEqual(
        new Set(["judge claude-sonnet-4-6", "judge claude-haiku-4-5"]),
      );
      expect(last.flips[0]!.reasons).toEqual([
        { criterion: "window", score: 0.2, reasoning: "No count of business days is given." },
      ]);
      expect(last.flips[0]!.href).toBe(
        `/runs/${runId}/results/${encodeURIComponent(last.flips[0]!.id)}`,
      );
      expect(last.counts).toEqual({
        nowFail: 2,
        nowPass: 0,
        criteria: 0,
        notGraded: 0,
        moved: 0,
        unchanged: 2,
      });
      expect(await db.prisma.run.count()).toBe(runsBefore);

      // Again: the verdicts it paid for are in the judge cache, so nothing is asked and it plans 0 calls.
      const again = await preview(EDITED);
      expect(judged().length).toBe(asked + 2);
      expect(again.last).toMatchObject({ calls: 0, reused: 4 });
      expect(again.last.flips).toHaveLength(2);
    },
  );

  it(
    "lists a criterion that flips under a verdict that holds, and says which",
    { timeout: 60_000 },
    async () => {
      // "polite" scored 0.90 and passed; held to 0.95 it fails, while each tone cell still passes at 0.90.
      const stricter = ORIGINAL.replace(
        'description: "Is polite." }',
        'description: "Is polite.", threshold: 0.95 }',
      );
      expect(stricter).not.toBe(ORIGINAL);
      const { last } = await preview(stricter);
      expect(
        last.flips.map((f) => [f.eval, f.kind, f.flippedCriteria, f.previous.status, f.now.status]),
      ).toEqual([
        ["tone", "criteria", ["polite"], "passed", "passed"],
        ["tone", "criteria", ["polite"], "passed", "passed"],
      ]);
      expect(last.flips[0]!.reasons.map((r) => r.criterion)).toEqual(["polite"]);
      expect(last.counts).toEqual({
        nowFail: 0,
        nowPass: 0,
        criteria: 2,
        notGraded: 0,
        moved: 0,
        unchanged: 2,
      });
    },
  );

  it(
    "refuses hostile input with a 4xx in words: a huge body, text that does not load, another suite's run, an unknown run",
    { timeout: 60_000 },
    async () => {
      const asked = api.requests.length;
      const huge = await post(runId, { yaml: "x".repeat(6 * 1024 * 1024), suiteId });
      expect(huge.status).toBe(413);
      expect(await messageOf(huge)).toMatch(/larger than 5 MB/);

      const broken = await post(runId, { yaml: "evals:\n  - name: x\n    rubric: [", suiteId });
      expect(broken.status).toBe(400);
      expect(await messageOf(broken)).toMatch(
        /^No preview: the suite does not load\. line \d+:\d+: /,
      );

      const other = await createSuiteStore(db.prisma).createSuite({ name: "other", yaml: "" });
      if (!other.ok) throw new Error(other.message);
      const foreign = await post(runId, { yaml: EDITED, suiteId: other.value.id });
      expect(foreign.status).toBe(400);
      expect(await messageOf(foreign)).toMatch(/graded the suite "refunds.yaml", not this one/);

      const unknown = await post("00000000-0000-4000-8000-000000000000", { yaml: EDITED, suiteId });
      expect(unknown.status).toBe(404);
      expect(await messageOf(unknown)).toMatch(/No stored run 00000000/);
      const notAnId = await post("../../etc", { yaml: EDITED, suiteId });
      expect(notAnId.status).toBe(404);

      const notJson = await post(runId, "{");
      expect(notJson.status).toBe(400);
      expect(api.requests.length).toBe(asked);
    },
  );
});

describe("a server without the judge's key", () => {
  it(
    "plans no call and says the results cannot be graded here, and why",
    { timeout: 30_000 },
    async () => {
      const key = process.env.ANTHROPIC_API_KEY;
      delete process.env.ANTHROPIC_API_KEY;
      try {
        const planned = await post(runId, { yaml: EDITED, suiteId, plan: true });
        expect(planned.status).toBe(200);
        const plan = (await planned.json()) as FlipsPlan;
        expect(plan).toMatchObject({ compared: 4, calls: 0, deferred: 4 });
        expect(plan.deferReason).toMatch(/ANTHROPIC_API_KEY/);
      } finally {
        process.env.ANTHROPIC_API_KEY = key;
      }
    },
  );
});

describe("a preview the browser leaves", () => {
  it(
    "stops: the judge calls in flight are dropped and none is made after",
    { timeout: 60_000 },
    async () => {
      const slow = startFakeMessagesApi({
        respond: async () => {
          await new Promise((resolve) => setTimeout(resolve, 5_000));
          return { verdict: { reasoning: "late", score: 0.5 } };
        },
      });
      const api2 = await slow;
      const url = process.env.ANTHROPIC_BASE_URL;
      process.env.ANTHROPIC_BASE_URL = api2.url;
      try {
        const left = new AbortController();
        const response = await POST(
          new Request(`http://127.0.0.1/api/runs/${runId}/flips-preview`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ yaml: suite("Names the refund window in weeks."), suiteId }),
            signal: left.signal,
          }),
          { params: Promise.resolve({ id: runId }) },
        );
        expect(response.status).toBe(200);
        // Both calls of the edited criterion (its two cells) are in flight.
        await expect.poll(() => api2.inFlight(), { timeout: 10_000 }).toBe(2);
        const started = api2.requests.length;
        // The route returned long ago and nothing holds its Request: a collection must not lose the leave.
        await forceGc();
        left.abort();
        await expect.poll(() => api2.inFlight(), { timeout: 3_000 }).toBe(0);
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        // No retry, no call not yet started: what was asked when the browser left is all.
        expect(api2.requests.length).toBe(started);
      } finally {
        process.env.ANTHROPIC_BASE_URL = url;
        await api2.close();
      }
    },
  );
});

describe("runFlipsPreview past the dashboard's bound", () => {
  it("refuses before any call, naming the count, the bound and the CLI way", async () => {
    const asked = api.requests.length;
    const refused = await runFlipsPreview({
      prisma: db.prisma,
      runId,
      suiteId,
      suite: suiteFrom(suite("Names the refund window in hours.")),
      defaultModel: "claude-sonnet-4-6",
      toolVersion: "0.0.0-test",
      priceOf: () => undefined,
      maxCalls: 1,
      judge: {
        grade: () => Promise.reject(new Error("a refused preview must not call the judge")),
      },
    });
    expect(refused).toEqual({
      ok: false,
      code: "too_complex",
      message: `This preview would make 2 judge calls; one dashboard request may make at most 1 call. Edit fewer criteria at once, or save and run rubric-studio regrade ${runId} --config <file>.`,
    });
    expect(api.requests.length).toBe(asked);
  });

  it("refuses a run with more calls to compare than a preview grades, cached or not", async () => {
    const refused = await planFlipsPreview({
      prisma: db.prisma,
      runId,
      suiteId,
      suite: suiteFrom(EDITED),
      defaultModel: "claude-sonnet-4-6",
      toolVersion: "0.0.0-test",
      priceOf: () => undefined,
      maxCalls: 5_000,
      maxCompared: 3,
    });
    expect(refused).toEqual({
      ok: false,
      code: "too_complex",
      message: `Run ${runId} has 4 judge calls to compare with this text (from the judge cache or not); a dashboard preview grades at most 3 calls. Save, then run rubric-studio regrade ${runId} --config <file>.`,
    });
  });
});
