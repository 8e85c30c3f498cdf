import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderToStaticMarkup } from "react-dom/server";
// A test may call pages and route handlers the way Next does; the rule keeps lib/ and components/ off app/.
/* eslint-disable no-restricted-imports */
import AgreementPage from "../../../app/runs/[id]/agreement/page";
import { GET as listSuites } from "../../../app/api/suites/route";
/* eslint-enable no-restricted-imports */
import { resetSuiteWorkers } from "../../../lib/offthread/suite-workers";
import { seedBigRun } from "../../../bench/seed-big-run";
import { useTestDatabase } from "../../support/test-database";

// The agreement page of a big run whose figures were not kept (a run finished by an older version,
// or one still running) computes them on a worker thread: the server answers other requests at
// once meanwhile, the page answers in bounded time, and it names the sample it read.

const db = useTestDatabase();
const holder = globalThis as typeof globalThis & {
  __rubricStudioPrisma?: { $disconnect(): Promise<void> };
};
const saved = process.env.DATABASE_URL;

let runId: string;
beforeAll(async () => {
  process.env.DATABASE_URL = db.url;
  // 32,000 results: 8,000 evals each graded by four judge models (matrix cells), kept figures none.
  runId = (await seedBigRun({ url: db.url, results: 32_000, criteria: 3 })).runId;
}, 600_000);
afterAll(async () => {
  await resetSuiteWorkers();
  await holder.__rubricStudioPrisma?.$disconnect();
  delete holder.__rubricStudioPrisma;
  if (saved === undefined) delete process.env.DATABASE_URL;
  else process.env.DATABASE_URL = saved;
});

describe("the agreement page of a big run", () => {
  it("is computed off the main thread while GET /api/suites is answered at once, and names its sample", async () => {
    // A limit no machine this test runs on reaches (on a loaded 2-core machine: about a minute).
    await resetSuiteWorkers({ timeLimitMs: 300_000 });
    let done = false;
    const started = performance.now();
    const page = AgreementPage({ params: Promise.resolve({ id: runId }) }).then((element) => {
      done = true;
      return { element, ms: performance.now() - started };
    });
    // Let the page read its sample and hand it to a thread.
    // The slowest answer while the page was busy: on the main thread one waits for the whole computation.
    let listMs = 0;
    let busyWhileListed = false;
    for (let i = 0; i < 4000 && !done; i++) {
      // Timed from when the request was due, so a blocked event loop (the timer late) counts too.
      const busyWhenDue = !done;
      const due = performance.now() + 25;
      await new Promise((resolve) => setTimeout(resolve, 25));
      const response = await listSuites();
      expect(response.status).toBe(200);
      if (busyWhenDue) {
        listMs = Math.max(listMs, performance.now() - due);
        busyWhileListed = true;
      }
    }
    const { element, ms } = await page;
    console.log(
      `agreement page ${Math.round(ms)} ms; GET /api/suites meanwhile at most ${Math.round(listMs)} ms`,
    );
    expect(busyWhileListed).toBe(true);
    // On the main thread the list would wait for the whole computation.
    expect(listMs).toBeLessThan(ms / 3);
    const html = renderToStaticMarkup(element);
    // The graded ones of the 32,000 (the seeded run also has deferred, skipped and judge errors).
    const sample =
      /The figures are over the first ([\d,]+) of\s+the run&#x27;s ([\d,]+) multi-judge/.exec(html);
    expect(sample?.[1]).toBe("10,000");
    expect(Number(sample?.[2]?.replaceAll(",", ""))).toBeGreaterThan(25_000);
    expect(html.includes('data-testid="disagreement-count"')).toBe(true);
    expect(html.includes("agreement-unavailable")).toBe(false);
  }, 400_000);
});
