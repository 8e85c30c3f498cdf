import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";
import { createPrismaClient } from "../lib/store/connection";
import { freePort } from "../lib/store/embedded-postgres";
import { startEmbeddedServer } from "../lib/store/embedded-thread";
import { createRunStore } from "../lib/store/run-store";
import {
  CHROMIUM_ARGS,
  CHROMIUM_PATH,
  ensureBuild,
  startBuiltApp,
  type BuiltApp,
} from "../scripts/built-app";
import { seedBigRun } from "./seed-big-run";
import { loadSuite } from "../lib/config/load-suite";
import { evalNameOf } from "./synthetic-results";

// `npm run bench:ui`: the dashboard's own speed, measured in the browser the
// way a person meets it, on a run of 10,000 results in a throwaway embedded
// database:
//   (a) the server's response time for the run page (p50/p95 of 20 GETs);
//   (b) Chromium: navigation to the first rows drawn, and on to the last
//       page (its link followed, the run's last row drawn);
//   (c) the suite editor with a 2,000-line suite: a keystroke that breaks the
//       YAML to its markers, and the keystroke that mends it to their going.
// Figures are printed against their targets with the load average beside
// them (the machine is shared; figures move with its load). The exit code is
// non-zero only when something does not work, not when a figure is slow.
//
// The app is built first unless .next is newer than every source file, then
// started with `npm start`'s script on a spare port (scripts/built-app.ts).
// The bundle is written to .bench/ui/ so that lib/store finds prisma/ two
// folders up.

const RESULTS = 10_000;
const REQUESTS = 20;
const BROWSER_TRIES = 5;
const EDITOR_TRIES = 5;
const EDITOR_EVALS = 222; // × 9 lines + 3 = 2,001 lines
const TARGETS = { serverMs: 300, interactiveMs: 2_000, markersMs: 200 };

interface Figure {
  label: string;
  p50: number;
  p95: number;
  target: number;
  note?: string;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** A valid suite of `evals` evals with three criteria each (the editor's test text: no errors until a key makes one). */
function editorSuite(evals: number): string {
  const lines = [
    "description: Support assistant, a long suite",
    "judge: { model: claude-sonnet-4-6 }",
    "evals:",
  ];
  for (let e = 0; e < evals; e++) {
    lines.push(
      `  - name: "${evalNameOf(e)}"`,
      `    prompt: "Customer ticket #${4000 + e}"`,
      `    response: "Thanks for reaching out about ticket ${4000 + e}; here is what to do next."`,
      "    rubric:",
      "      threshold: 0.7",
      "      criteria:",
      '        - { name: "answers the question", description: "Directly answers what the customer asked." }',
      '        - { name: "gives a next step", description: "Ends with a concrete next step.", weight: 2 }',
      '        - { name: "invents no figures", description: "States no number the ticket does not contain.", required: true }',
    );
  }
  const text = `${lines.join("\n")}\n`;
  const loaded = loadSuite({ text, file: "editor-suite.yaml" });
  if (!loaded.ok)
    throw new Error(
      `the editor's suite does not load: ${JSON.stringify(loaded.issues.slice(0, 3))}`,
    );
  return text;
}

function uptime(): string {
  const [one, five, fifteen] = os.loadavg();
  return `load average ${one!.toFixed(2)}, ${five!.toFixed(2)}, ${fifteen!.toFixed(2)} on ${os.availableParallelism()} cores`;
}

/** (a) Full responses of the run page: the server renders counts, the first rows and the matrix. */
async function timeServer(url: string): Promise<Figure> {
  const once = async () => {
    const started = performance.now();
    const response = await fetch(url);
    const html = await response.text();
    if (!response.ok || !html.includes('data-testid="result-row"'))
      throw new Error(`the run page answered ${response.status} without rows`);
    return performance.now() - started;
  };
  for (let i = 0; i < 3; i++) await once();
  const ms: number[] = [];
  for (let i = 0; i < REQUESTS; i++) ms.push(await once());
  return {
    label: `run page, server response (${REQUESTS} GETs, 10,000 results)`,
    p50: percentile(ms, 50),
    p95: percentile(ms, 95),
    target: TARGETS.serverMs,
  };
}

/** (b) Navigation to rows drawn, and on to the last page by its link (a keyset page). */
async function timeTable(browser: Browser, url: string): Promise<Figure[]> {
  const firstRows: number[] = [];
  const interactive: number[] = [];
  for (let i = 0; i < BROWSER_TRIES + 1; i++) {
    const context = await browser.newContext();
    const page = await context.newPage();
    const started = performance.now();
    await page.goto(url, { waitUntil: "commit" });
    await page.locator("[data-testid=result-row]").first().waitFor();
    const drawn = performance.now() - started;
    // The last page: its link followed once the page is live, the run's last row drawn.
    await page.locator("[data-testid=results-scroller][data-hydrated=true]").waitFor();
    await page.getByTestId("page-last").click();
    await page
      .locator(`[data-testid=result-row][aria-rowindex="${RESULTS + 1}"]`)
      .waitFor({ timeout: 30_000 });
    const live = performance.now() - started;
    await context.close();
    // The first try warms the server's and Chromium's caches.
    if (i === 0) continue;
    firstRows.push(drawn);
    interactive.push(live);
  }
  return [
    {
      label: `table: navigation to first rows drawn (${BROWSER_TRIES} loads)`,
      p50: percentile(firstRows, 50),
      p95: percentile(firstRows, 95),
      target: TARGETS.interactiveMs,
    },
    {
      label: "table: navigation, then the last page drawn",
      p50: percentile(interactive, 50),
      p95: percentile(interactive, 95),
      target: TARGETS.interactiveMs,
    },
  ];
}

const OWNERS = { schema: "yaml", engine: "rubric-studio" } as const;

/**
 * Milliseconds from a keystroke (its keydown, in the page) until the error
 * markers of each owner say `wanted` (present, or gone): the schema's, from
 * monaco-yaml's worker, and the engine's, from the server's /api/validate.
 * Polled every frame in the page.
 */
async function keyToMarkers(
  page: Page,
  input: { key: string; wanted: "errors" | "clean" },
): Promise<{ schema: number; engine: number }> {
  await page.evaluate(() => {
    const w = window as typeof window & {
      __bench?: { keyAt?: number; seen: Record<string, number> };
    };
    w.__bench = { seen: {} };
    window.addEventListener("keydown", () => (w.__bench!.keyAt = performance.now()), {
      capture: true,
      once: true,
    });
  });
  await page.keyboard.press(input.key);
  const handle = await page.waitForFunction(
    ({ owners, wanted }) => {
      const w = window as typeof window & {
        __bench?: { keyAt?: number; seen: Record<string, number> };
      };
      const bench = w.__bench!;
      if (bench.keyAt === undefined) return false;
      for (const owner of owners) {
        // monaco-yaml marks a schema violation as a warning, the engine as an error: any marker counts.
        const markers = globalThis.__rubricStudioEditor!.getMarkers(owner).length;
        if (bench.seen[owner] === undefined && (wanted === "errors" ? markers > 0 : markers === 0))
          bench.seen[owner] = performance.now() - bench.keyAt;
      }
      return owners.every((o) => bench.seen[o] !== undefined) ? bench.seen : false;
    },
    { owners: Object.values(OWNERS), wanted: input.wanted },
    { polling: "raf", timeout: 30_000 },
  );
  const seen = (await handle.jsonValue()) as Record<string, number>;
  return { schema: seen[OWNERS.schema]!, engine: seen[OWNERS.engine]! };
}

/** (c) A 2,000-line suite: break line 1 with one key, mend it with Backspace. */
async function timeEditor(browser: Browser, url: string, lines: number): Promise<Figure[]> {
  const page = await browser.newPage();
  await page.goto(url);
  await page.waitForFunction(() => globalThis.__rubricStudioEditor !== undefined, undefined, {
    timeout: 60_000,
  });
  await page.waitForFunction(() => globalThis.__rubricStudioEditor!.getValue().length > 0);
  // Start from a fully validated text with no markers.
  await page.waitForTimeout(2_000);
  await page.waitForFunction(
    () => globalThis.__rubricStudioEditor!.getMarkers().length === 0,
    undefined,
    { timeout: 60_000 },
  );
  await page.locator(".monaco-editor .view-lines").first().click();
  await page.keyboard.press("Control+Home");
  const broke: { schema: number; engine: number }[] = [];
  const mended: { schema: number; engine: number }[] = [];
  for (let i = 0; i < EDITOR_TRIES; i++) {
    // "x" before `description:` on line 1 makes an unknown top-level field, which both the schema and the engine flag.
    broke.push(await keyToMarkers(page, { key: "x", wanted: "errors" }));
    mended.push(await keyToMarkers(page, { key: "Backspace", wanted: "clean" }));
    await page.waitForTimeout(300);
  }
  if (
    !(await page.evaluate(() =>
      globalThis.__rubricStudioEditor!.getValue().startsWith("description:"),
    ))
  )
    throw new Error("the editor's text did not come back to its start");
  await page.close();
  const figure = (label: string, ms: number[], note?: string): Figure => ({
    label: `editor (${lines} lines): ${label}`,
    p50: percentile(ms, 50),
    p95: percentile(ms, 95),
    target: TARGETS.markersMs,
    ...(note ? { note } : {}),
  });
  return [
    figure(
      "key to schema marker shown",
      broke.map((t) => t.schema),
    ),
    figure(
      "key to schema marker gone",
      mended.map((t) => t.schema),
    ),
    figure(
      "key to engine marker shown",
      broke.map((t) => t.engine),
      "includes the editor's 60 ms pause before it asks the server",
    ),
    figure(
      "key to engine marker gone",
      mended.map((t) => t.engine),
      "likewise",
    ),
  ];
}

function print(figures: Figure[]): boolean {
  const width = Math.max(...figures.map((f) => f.label.length));
  console.log(`\n${"figure".padEnd(width)}      p50       p95   target`);
  let allMet = true;
  for (const f of figures) {
    const met = f.p95 < f.target;
    allMet &&= met;
    console.log(
      `${f.label.padEnd(width)}  ${f.p50.toFixed(0).padStart(6)} ms ${f.p95.toFixed(0).padStart(6)} ms  < ${f.target} ms ${met ? "met" : "MISSED"}${f.note ? `  (${f.note})` : ""}`,
    );
  }
  return allMet;
}

async function main() {
  console.log(`bench:ui on ${uptime()}`);
  const dir = await mkdtemp(path.join(os.tmpdir(), "rs-bench-ui-"));
  const dataDir = path.join(dir, "pglite");
  let app: BuiltApp | undefined;
  const figures: Figure[] = [];
  let browser: Browser | undefined;
  const stop = async () => {
    await browser?.close().catch(() => undefined);
    await app?.stop();
    await rm(dir, { recursive: true, force: true });
  };
  process.on("SIGINT", () => void stop().then(() => process.exit(130)));
  try {
    // Seed, then hand the folder to the app (one server per data folder).
    const server = await startEmbeddedServer({ dataDir, migrate: true });
    const seeded = await seedBigRun({ url: server.url, results: RESULTS, criteria: 3 });
    const editorYaml = editorSuite(EDITOR_EVALS);
    const prisma = createPrismaClient(server.url);
    const { suiteId } = await createRunStore(prisma).saveSuiteVersion({
      name: "editor-2000-lines.yaml",
      yaml: editorYaml,
    });
    await prisma.$disconnect();
    await server.stop();
    console.log(
      `seeded a run of ${seeded.results.toLocaleString("en-US")} results in ${(seeded.ms / 1000).toFixed(1)} s, and a suite of ${editorYaml.split("\n").length - 1} lines`,
    );

    await ensureBuild();
    const port = await freePort();
    app = await startBuiltApp({ dataDir, port });
    const base = app.url;
    console.log(`app on ${base}; ${uptime()}`);

    figures.push(await timeServer(`${base}/runs/${seeded.runId}`));
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
    figures.push(...(await timeTable(browser, `${base}/runs/${seeded.runId}`)));
    figures.push(
      ...(await timeEditor(
        browser,
        `${base}/suites/${suiteId}`,
        editorYaml.split("\n").length - 1,
      )),
    );
  } finally {
    // What was measured is printed even when a later step failed.
    if (figures.length) {
      const met = print(figures);
      console.log(`\n${met ? "every target met" : "a target was missed"}; ${uptime()}`);
    }
    await stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
