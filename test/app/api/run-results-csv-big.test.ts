import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// A test may call a route handler the way Next does; the rule keeps lib/ and components/ off app/.
// eslint-disable-next-line no-restricted-imports
import { GET } from "../../../app/api/runs/[id]/results.csv/route";
import type { EvalResult } from "../../../lib/engine/results/report";
import { createRunStore } from "../../../lib/store/run-store";
import { seedBigRun, type SeededRun } from "../../../bench/seed-big-run";
import { sampleResults } from "../../support/sample-report";
import { useTestDatabase } from "../../support/test-database";

// The CSV download of a run of 50,000 results streams from the store: the file starts before its
// last rows are read from the database, so a run of a million is never in memory (nor its keys):
// results stored after the download began, which sort last, are in the file.

const db = useTestDatabase();
const RESULTS = 50_000;
let seeded: SeededRun;
const holder = globalThis as typeof globalThis & { __rubricStudioPrisma?: unknown };

beforeAll(async () => {
  process.env.DATABASE_URL = db.url;
  seeded = await seedBigRun({ url: db.url, results: RESULTS, criteria: 2 });
}, 300_000);
afterAll(async () => {
  const prisma = holder.__rubricStudioPrisma as { $disconnect(): Promise<void> } | undefined;
  await prisma?.$disconnect();
  delete holder.__rubricStudioPrisma;
  delete process.env.DATABASE_URL;
});

describe("GET /api/runs/<id>/results.csv of a big run", () => {
  it(
    "starts before the last rows are read: results stored after the first rows arrived are in the file, every row once, in the suite's order",
    {
      timeout: 300_000,
    },
    async () => {
      const started = performance.now();
      const response = await GET(
        new Request(`http://127.0.0.1/api/runs/${seeded.runId}/results.csv`),
        {
          params: Promise.resolve({ id: seeded.runId }),
        },
      );
      expect(response.status).toBe(200);
      const reader = response.body!.getReader();
      const decoder = new TextDecoder();
      let text = "";
      // The header, then the first page of rows.
      while (text.split("\r\n").length < 3) text += decoder.decode((await reader.read()).value);
      const firstRowsMs = performance.now() - started;

      // Stored now, while the download is under way; without a location they come last in the suite's order.
      const template = sampleResults().find((r) => r.status === "failed") as EvalResult;
      const late = Array.from({ length: 10 }, (_, i): EvalResult => {
        const { location: _location, ...rest } = template;
        return { ...rest, id: `late ${i}`, name: `late ${i}` };
      });
      await createRunStore(db.prisma).saveResults(seeded.runId, late);

      for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read())
        text += decoder.decode(chunk.value, { stream: true });
      const wholeMs = performance.now() - started;
      const rows = parse(text, { columns: true }) as Record<string, string>[];
      expect(rows).toHaveLength(RESULTS + late.length);
      expect(new Set(rows.map((r) => r.id)).size).toBe(RESULTS + late.length);
      expect(rows.slice(-late.length).map((r) => r.name)).toEqual(late.map((r) => r.name));
      // The suite's order: the evals by their line (the seeded run's names number them in that order).
      const evalNumbers = rows
        .slice(0, -late.length)
        .map((r) => Number(/#(\d+)/.exec(r.name ?? "")?.[1]));
      expect(evalNumbers.every((n, i) => i === 0 || n >= evalNumbers[i - 1]!)).toBe(true);
      console.log(
        `CSV of ${RESULTS.toLocaleString("en-US")} results: first rows ${firstRowsMs.toFixed(0)} ms, whole file ${wholeMs.toFixed(0)} ms`,
      );
    },
  );
});
