import { afterAll, beforeAll, describe, expect, it } from "vitest";
// A test may call a route handler the way Next does; the rule keeps lib/ and components/ off app/.
// eslint-disable-next-line no-restricted-imports
import { POST } from "../../../app/api/suites/[id]/runs/route";
import { createSuiteStore } from "../../../lib/store/suite-store";
import type { RunConfig } from "../../../lib/store/run-store";
import { useTestDatabase } from "../../support/test-database";
import { releaseRouteDatabase } from "../../support/route-database";

// The dashboard's "Run as batch": POST /api/suites/[id]/runs with batch: true
// queues a run whose workers grade it through Message Batches (its config says
// so, which is what the worker reads); without it, a plain run.

const db = useTestDatabase();
const YAML = 'evals:\n  - name: only\n    response: "A."\n    rubric: "Is it right?"\n';
let suiteId: string;

beforeAll(async () => {
  process.env.DATABASE_URL = db.url;
  const created = await createSuiteStore(db.prisma).createSuite({ name: "batch run", yaml: YAML });
  if (!created.ok) throw new Error(created.message);
  suiteId = created.value.id;
}, 60_000);
afterAll(releaseRouteDatabase);

async function run(body: unknown): Promise<{ status: number; config?: RunConfig }> {
  const response = await POST(
    new Request(`http://127.0.0.1/api/suites/${suiteId}/runs`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    }),
    { params: Promise.resolve({ id: suiteId }) },
  );
  if (response.status !== 201) return { status: response.status };
  const { runId } = (await response.json()) as { runId: string };
  const row = await db.prisma.run.findUniqueOrThrow({ where: { id: runId } });
  return { status: 201, config: row.config as unknown as RunConfig };
}

describe("POST /api/suites/[id]/runs", () => {
  it(
    "queues a batched run with batch: true, and a plain one without",
    { timeout: 60_000 },
    async () => {
      const batched = await run({ yaml: YAML, batch: true });
      expect(batched.status).toBe(201);
      expect(batched.config?.batch).toEqual({ pollSeconds: 60 });
      const plain = await run({ yaml: YAML });
      expect(plain.status).toBe(201);
      expect(plain.config?.batch).toBeUndefined();
      expect((await run({ yaml: YAML, batch: "yes" })).status).toBe(400);
    },
  );
});
