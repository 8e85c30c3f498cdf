import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// A test may call a route handler the way Next does; the rule keeps lib/ and components/ off app/.
// eslint-disable-next-line no-restricted-imports
import { GET } from "../../../app/api/runs/[id]/results.csv/route";
import type { EvalResult } from "../../../lib/engine/results/report";
import { createRunStore } from "../../../lib/store/run-store";
import { sampleResults } from "../../support/sample-report";
import { useTestDatabase } from "../../support/test-database";

// The run page's CSV download, called as Next calls it, on a real database:
// every stored result once, in the suite's order, streamed a page at a time;
// hostile cells neutralised, secrets redacted; an unknown run a 404.

const db = useTestDatabase();
const ROWS = 1_234;
const SECRET = "sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789";
let runId: string;
const holder = globalThis as typeof globalThis & { __rubricStudioPrisma?: unknown };

beforeAll(async () => {
  process.env.DATABASE_URL = db.url;
  const store = createRunStore(db.prisma);
  const version = await store.saveSuiteVersion({ name: "big.yaml", yaml: "evals: []\n" });
  const config = {
    file: "big.yaml",
    toolVersion: "0.1.0",
    judgeModel: "claude-sonnet-4-6",
    concurrency: 4,
    timeoutSeconds: 60,
  };
  runId = await store.createRun({ ...version, startedBy: "cli", config, totalCells: ROWS });
  const template = sampleResults().find((r) => r.status === "failed") as EvalResult;
  const results = Array.from({ length: ROWS }, (_, i): EvalResult => ({
    ...template,
    id: `row ${String(i).padStart(4, "0")}`,
    name: i === 7 ? '=HYPERLINK("http://evil","click")' : `row ${String(i).padStart(4, "0")}`,
    reason: i === 8 ? `leaked ${SECRET}` : `reason ${i}, "quoted"\nsecond line`,
    score: i / ROWS,
  }));
  // Stored in batches, as a run stores its results over time.
  for (let i = 0; i < ROWS; i += 400) await store.saveNewResults(runId, results.slice(i, i + 400));
}, 120_000);
afterAll(async () => {
  const prisma = holder.__rubricStudioPrisma as { $disconnect(): Promise<void> } | undefined;
  await prisma?.$disconnect();
  delete holder.__rubricStudioPrisma;
  delete process.env.DATABASE_URL;
});

const call = (id: string) =>
  GET(new Request(`http://127.0.0.1/api/runs/${id}/results.csv`), {
    params: Promise.resolve({ id }),
  });

describe("GET /api/runs/<id>/results.csv", () => {
  it("downloads every result once, as the csv reporter's rows, with formula cells neutralised and secrets redacted", async () => {
    const response = await call(runId);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("content-disposition")).toBe(
      `attachment; filename="run-${runId}.csv"`,
    );
    const text = await response.text();
    const rows = parse(text, { columns: true }) as Record<string, string>[];
    expect(rows).toHaveLength(ROWS);
    expect(new Set(rows.map((r) => r.id)).size).toBe(ROWS);
    expect(rows.find((r) => r.id === "row 0007")!.name).toBe('\'=HYPERLINK("http://evil","click")');
    expect(rows.find((r) => r.id === "row 0009")!.reason).toBe('reason 9, "quoted"\nsecond line');
    expect(text).not.toContain(SECRET);
    expect(rows.find((r) => r.id === "row 0008")!.reason).toContain("[REDACTED]");
    const template = sampleResults().find((r) => r.status === "failed")!;
    for (const c of template.criteria)
      expect(Object.keys(rows[0]!)).toContain(`criterion: ${c.name}`);
  });

  it("streams a page at a time: the first chunks are the header and one page, before the rest is read", async () => {
    const response = await call(runId);
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    const header = decoder.decode((await reader.read()).value);
    expect(header).toMatch(/^id,eval,name,/);
    const page = decoder.decode((await reader.read()).value);
    expect((parse(header + page) as string[][]).length - 1).toBe(500);
    await reader.cancel();
  });

  it("an unknown run, or an id that is not one, is a 404", async () => {
    for (const id of ["00000000-0000-4000-8000-000000000000", "not-a-uuid"]) {
      const response = await call(id);
      expect(response.status).toBe(404);
      expect((await response.json()).error.code).toBe("not_found");
    }
  });
});
