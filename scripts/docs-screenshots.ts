import { mkdir, mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { chromium, type Page } from "playwright-core";
import { freePort } from "../lib/store/embedded-postgres";
import { startFakeMessagesApi, type FakeReply, type FakeRequest } from "../test/support/fake-messages-api";
import { runCli } from "../test/support/run-cli";
import { CHROMIUM_ARGS, CHROMIUM_PATH, ensureBuild, ROOT, startBuiltApp } from "./built-app";

// `npm run docs:screenshots`: PNGs of the dashboard's main views in docs/,
// for the README. It starts the built app on a throwaway embedded database
// (which loads examples/rubric-eval.yaml as a suite), grades that suite twice
// with the real CLI against the stand-in Messages API (test/support), so the
// run, matrix, result and history pages have something to show, and then
// photographs each entry of SHOTS. Add a view by adding an entry.

const SUITE = "examples/rubric-eval.yaml";
const VIEWPORT = { width: 1280, height: 860 };

interface Context {
  suiteId: string;
  /** Newest first. */
  runIds: string[];
}

interface Shot {
  file: string;
  url(context: Context): string;
  /** Get the page into the state to photograph (an error typed, a row opened...). */
  prepare?(page: Page): Promise<void>;
  /** Photograph only this element (default: the whole page). */
  element?: string;
}

const SHOTS: Shot[] = [
  { file: "suites.png", url: () => "/suites", prepare: (page) => page.getByTestId("suite-row").first().waitFor() },
  {
    file: "editor.png",
    url: (c) => `/suites/${c.suiteId}`,
    prepare: async (page) => {
      await page.waitForFunction(() => globalThis.__rubricStudioEditor !== undefined, undefined, { timeout: 60_000 });
      // A misspelt field: the schema's marker, the engine's problem, and the plan beside them.
      await page.evaluate(() => {
        const editor = globalThis.__rubricStudioEditor!;
        editor.setValue(editor.getValue().replace("    threshold: 0.6", "    treshold: 0.6"));
      });
      await page.waitForFunction(() => globalThis.__rubricStudioEditor!.getMarkers().length > 0, undefined, { timeout: 30_000 });
      await page.waitForTimeout(1_500);
    },
  },
  { file: "run.png", url: (c) => `/runs/${c.runIds[0]}`, prepare: (page) => page.getByTestId("result-row").first().waitFor() },
  { file: "matrix.png", url: (c) => `/runs/${c.runIds[0]}`, element: "section:has([data-testid=matrix-cell])", prepare: (page) => page.getByTestId("matrix-cell").first().waitFor() },
  {
    file: "result.png",
    url: (c) => `/runs/${c.runIds[0]}/results/${encodeURIComponent("billing answer is safe and correct")}`,
    prepare: (page) => page.getByTestId("criterion").first().waitFor(),
  },
  { file: "history.png", url: (c) => `/suites/${c.suiteId}/runs`, prepare: (page) => page.waitForSelector(".recharts-surface", { timeout: 30_000 }).then(() => page.waitForTimeout(800)) },
];

/** The stand-in judge: plausible verdicts that differ between the two rounds, so history has something to compare. */
function judge(round: number) {
  return (request: FakeRequest): FakeReply => {
    const text = `${request.system}\n${request.user}`;
    const haiku = JSON.stringify(request.body.model).includes("haiku");
    if (text.includes("full card number")) return { verdict: { reasoning: "Only the last four digits (4242) appear.", score: 0.05, evidence: "the card ending in 4242" } };
    if (text.includes("Invoice 42")) return { verdict: { reasoning: "States the total of $120.00 for invoice 42.", score: round === 1 ? 0.95 : 0.9, evidence: "Invoice 42 totaled $120.00" } };
    if (text.includes("release version")) return { verdict: { reasoning: "Names the 2.3.0 release.", score: 0.9 } };
    if (text.includes("describe what that release changed")) return { verdict: { reasoning: "Per-tenant rate limits.", score: round === 1 ? 0.8 : 0.3 } };
    if (haiku) return { verdict: { reasoning: "Mostly concise, one clause could go.", score: round === 1 ? 0.75 : 0.55 } };
    return { verdict: { reasoning: "Clear, polite and to the point.", score: round === 1 ? 0.85 : 0.8 } };
  };
}

async function main() {
  const dir = await mkdtemp(path.join(os.tmpdir(), "rs-docs-"));
  const dataDir = path.join(dir, "pglite");
  await ensureBuild();
  const app = await startBuiltApp({ dataDir, port: await freePort() });
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  try {
    let round = 1;
    const api = await startFakeMessagesApi({ respond: (request) => judge(round)(request) });
    const runIds: string[] = [];
    try {
      for (; round <= 2; round++) {
        const run = await runCli(["eval", "--config", SUITE, "--store", "--no-cache", "--reporter", "json"], {
          cwd: ROOT,
          timeoutMs: 120_000,
          env: { ANTHROPIC_API_KEY: "sk-ant-docs", ANTHROPIC_BASE_URL: api.url, RUBRIC_STUDIO_DATA_DIR: dataDir },
        });
        const id = /Storing run ([0-9a-f-]{36})/.exec(run.stderr)?.[1];
        if (!id) throw new Error(`the CLI stored no run (exit ${run.code}):\n${run.stderr}`);
        runIds.unshift(id);
      }
    } finally {
      await api.close();
    }
    const suites = (await (await fetch(`${app.url}/api/suites`)).json()) as { suites?: { id: string; name: string }[] } | { id: string; name: string }[];
    const list = Array.isArray(suites) ? suites : (suites.suites ?? []);
    const suiteId = list.find((s) => s.name === SUITE)?.id;
    if (!suiteId) throw new Error(`no suite named ${SUITE} in ${JSON.stringify(suites).slice(0, 200)}`);

    const out = path.join(ROOT, "docs");
    await mkdir(out, { recursive: true });
    const page = await browser.newPage({ viewport: VIEWPORT });
    for (const shot of SHOTS) {
      await page.goto(`${app.url}${shot.url({ suiteId, runIds })}`);
      await shot.prepare?.(page);
      const file = path.join(out, shot.file);
      if (shot.element) await page.locator(shot.element).first().screenshot({ path: file });
      else await page.screenshot({ path: file, fullPage: true });
      console.log(`docs/${shot.file}`);
    }
  } finally {
    await browser.close();
    await app.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
