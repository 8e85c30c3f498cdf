import { afterAll, beforeAll, describe, expect, it } from "vitest";
// A test may call a route handler the way Next does; the rule keeps lib/ and components/ off app/.
// eslint-disable-next-line no-restricted-imports
import { GET } from "../../../app/api/runs/[id]/events/route";
import { DEFAULT_STREAM_LIMITS, sharedStreamCounter } from "../../../lib/access/stream-limits";
import { createRunStore } from "../../../lib/store/run-store";
import { useTestDatabase } from "../../support/test-database";
import { forceGc } from "../../support/force-gc";

// The run page's progress stream, called as Next calls it, on a real database:
// one client cannot hold more than a few streams, nor one run more than a few
// dozen (1,000 from one client slowed the whole dashboard 65-fold); the
// refused one is told why with a 429, and a stream that ends frees its place.

const db = useTestDatabase();
const holder = globalThis as typeof globalThis & { __rubricStudioPrisma?: unknown };
const runIds: string[] = [];
const open: AbortController[] = [];

beforeAll(async () => {
  process.env.DATABASE_URL = db.url;
  const store = createRunStore(db.prisma);
  const version = await store.saveSuiteVersion({ name: "s.yaml", yaml: "evals: []\n" });
  const config = {
    file: "s.yaml",
    toolVersion: "0.1.0",
    judgeModel: "claude-sonnet-4-6",
    concurrency: 4,
    timeoutSeconds: 60,
  };
  // Runs that never finish here, so their streams stay open until the client leaves.
  for (let i = 0; i < 2; i++)
    runIds.push(await store.createRun({ ...version, startedBy: "cli", config, totalCells: 3 }));
}, 60_000);

afterAll(async () => {
  for (const controller of open) controller.abort();
  const prisma = holder.__rubricStudioPrisma as { $disconnect(): Promise<void> } | undefined;
  await prisma?.$disconnect();
  delete holder.__rubricStudioPrisma;
  delete process.env.DATABASE_URL;
});

async function stream(runId: string, client: string) {
  const controller = new AbortController();
  open.push(controller);
  const response = await GET(
    new Request(`http://127.0.0.1/api/runs/${runId}/events`, {
      headers: { "x-forwarded-for": client, accept: "text/event-stream" },
      signal: controller.signal,
    }),
    { params: Promise.resolve({ id: runId }) },
  );
  return { response, leave: () => controller.abort() };
}

describe("GET /api/runs/<id>/events", () => {
  it("refuses a client's stream past its limit with a 429 that says why; another client still gets one; leaving frees a place", async () => {
    const { perClient } = DEFAULT_STREAM_LIMITS;
    const mine = [];
    for (let i = 0; i < perClient; i++) {
      const s = await stream(runIds[i % 2]!, "10.0.0.1");
      expect(s.response.status).toBe(200);
      expect(s.response.headers.get("content-type")).toContain("text/event-stream");
      mine.push(s);
    }
    const refused = await stream(runIds[0]!, "10.0.0.1");
    expect(refused.response.status).toBe(429);
    const body = (await refused.response.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("too_many");
    expect(body.error.message).toContain(`at most ${perClient} at once`);

    expect((await stream(runIds[0]!, "10.0.0.2")).response.status).toBe(200);

    // The handler returned long ago: a garbage collection must not lose the leave.
    await forceGc();
    mine[0]!.leave();
    expect((await stream(runIds[0]!, "10.0.0.1")).response.status).toBe(200);
  });

  it("a stream refused for an unknown run holds no place", async () => {
    for (const controller of open.splice(0)) controller.abort();
    for (let i = 0; i < DEFAULT_STREAM_LIMITS.perClient + 2; i++)
      expect(
        (await stream("00000000-0000-4000-8000-000000000000", "10.3.0.1")).response.status,
      ).toBe(404);
    expect(sharedStreamCounter().open()).toBe(0);
    expect((await stream(runIds[0]!, "10.3.0.1")).response.status).toBe(200);
  });

  it("refuses a run's stream past its limit, whoever asks", async () => {
    for (const controller of open.splice(0)) controller.abort();
    expect(sharedStreamCounter().open()).toBe(0);
    const { perRun } = DEFAULT_STREAM_LIMITS;
    for (let i = 0; i < perRun; i++)
      expect((await stream(runIds[1]!, `10.1.0.${i}`)).response.status).toBe(200);
    const refused = await stream(runIds[1]!, "10.2.0.1");
    expect(refused.response.status).toBe(429);
    expect(
      ((await refused.response.json()) as { error: { message: string } }).error.message,
    ).toContain("for this run");
    // Another run is not affected.
    expect((await stream(runIds[0]!, "10.2.0.1")).response.status).toBe(200);
  });
});
