import { mkdir, mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { chromium, type Page } from "playwright-core";
import { freePort } from "../lib/store/embedded-postgres";
import { startFakeMessagesApi } from "../test/support/fake-messages-api";
import { runCli } from "../test/support/run-cli";
import { CHROMIUM_ARGS, CHROMIUM_PATH, ensureBuild, ROOT, startBuiltApp } from "./built-app";
import { judge, trustJudge } from "./docs-judges";

// `npm run docs:screenshots`: PNGs of the dashboard's main views in docs/,
// for the README. It starts the built app on a throwaway embedded database
// (which loads examples/rubric-eval.yaml as a suite), grades that suite twice
// with the real CLI against the stand-in Messages API (test/support), so the
// run, matrix, result and history pages have something to show, grades
// examples/judge-trust.yaml (a panel, a review, a comparison) and calibrates
// its anchors for the judge-trust views, and then photographs each entry of
// SHOTS. Add a view by adding an entry. The stand-in judges are in
// docs-judges.ts.

const SUITE = "examples/rubric-eval.yaml";
const TRUST_SUITE = "examples/judge-trust.yaml";
const VIEWPORT = { width: 1280, height: 860 };

interface Context {
  suiteId: string;
  /** Newest first. */
  runIds: string[];
  /** examples/judge-trust.yaml: its suite and its one eval run. */
  trustSuiteId: string;
  trustRunId: string;
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
  {
    file: "suites.png",
    url: () => "/suites",
    prepare: (page) => page.getByTestId("suite-row").first().waitFor(),
  },
  {
    file: "editor.png",
    url: (c) => `/suites/${c.suiteId}`,
    prepare: async (page) => {
      await page.waitForFunction(() => globalThis.__rubricStudioEditor !== undefined, undefined, {
        timeout: 60_000,
      });
      // A misspelt field: the schema's marker, the engine's problem, and the plan beside them.
      await page.evaluate(() => {
        const editor = globalThis.__rubricStudioEditor!;
        editor.setValue(editor.getValue().replace("    threshold: 0.6", "    treshold: 0.6"));
      });
      await page.waitForFunction(
        () => globalThis.__rubricStudioEditor!.getMarkers().length > 0,
        undefined,
        { timeout: 30_000 },
      );
      await page.waitForTimeout(1_500);
    },
  },
  {
    file: "review-queue.png",
    url: (c) => `/suites/${c.trustSuiteId}/review`,
    prepare: async (page) => {
      await page.getByTestId("reviewer-input").fill("Ana");
      await page.getByTestId("reviewer-save").click();
      await page.getByTestId("review-item").first().waitFor();
    },
  },
  {
    file: "labelling.png",
    url: (c) => `/suites/${c.trustSuiteId}/review`,
    prepare: async (page) => {
      await page.getByTestId("claim").first().click();
      await page.getByTestId("label-form").waitFor();
      await page.waitForFunction(
        () => document.activeElement?.getAttribute("data-testid") === "label-form",
        undefined,
        { timeout: 30_000 },
      );
      await page.keyboard.press("1");
    },
  },
  {
    file: "run.png",
    url: (c) => `/runs/${c.runIds[0]}`,
    prepare: (page) => page.getByTestId("result-row").first().waitFor(),
  },
  {
    file: "matrix.png",
    url: (c) => `/runs/${c.runIds[0]}`,
    element: "section:has([data-testid=matrix-cell])",
    prepare: (page) => page.getByTestId("matrix-cell").first().waitFor(),
  },
  {
    file: "result.png",
    url: (c) =>
      `/runs/${c.runIds[0]}/results/${encodeURIComponent("billing answer is safe and correct")}`,
    prepare: (page) => page.getByTestId("criterion").first().waitFor(),
  },
  {
    file: "agreement.png",
    url: (c) => `/runs/${c.trustRunId}/agreement`,
    prepare: (page) =>
      page
        .waitForSelector(".recharts-surface", { timeout: 30_000 })
        .then(() => page.waitForTimeout(800)),
  },
  {
    file: "review.png",
    url: (c) => `/runs/${c.trustRunId}/results/${encodeURIComponent("checkout PRD")}`,
    prepare: (page) => page.getByTestId("result-name").waitFor(),
  },
  {
    file: "pairwise.png",
    url: (c) =>
      `/runs/${c.trustRunId}/results/${encodeURIComponent("release notes, v1 against v2")}`,
    prepare: (page) =>
      page
        .waitForSelector(".recharts-surface", { timeout: 30_000 })
        .then(() => page.waitForTimeout(800)),
  },
  {
    file: "calibration.png",
    url: (c) => `/suites/${c.trustSuiteId}/calibration`,
    prepare: (page) =>
      page
        .waitForSelector(".recharts-surface", { timeout: 30_000 })
        .then(() => page.waitForTimeout(800)),
  },
  {
    file: "history.png",
    url: (c) => `/suites/${c.suiteId}/runs`,
    prepare: (page) =>
      page
        .waitForSelector(".recharts-surface", { timeout: 30_000 })
        .then(() => page.waitForTimeout(800)),
  },
];

async function storeRun(args: string[], env: Record<string, string>): Promise<string> {
  const run = await runCli(args, { cwd: ROOT, timeoutMs: 120_000, env });
  const id = /Storing run ([0-9a-f-]{36})/.exec(run.stderr)?.[1];
  if (!id) throw new Error(`the CLI stored no run (exit ${run.code}):\n${run.stderr}`);
  return id;
}

async function main() {
  const dir = await mkdtemp(path.join(os.tmpdir(), "rs-docs-"));
  const dataDir = path.join(dir, "pglite");
  await ensureBuild();
  const app = await startBuiltApp({
    dataDir,
    port: Number(process.env.DOCS_PORT) || (await freePort()),
  });
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  try {
    let round = 1;
    const api = await startFakeMessagesApi({ respond: (request) => judge(round)(request) });
    const runIds: string[] = [];
    try {
      for (; round <= 2; round++) {
        runIds.unshift(
          await storeRun(
            ["eval", "--config", SUITE, "--store", "--no-cache", "--reporter", "json"],
            {
              ANTHROPIC_API_KEY: "sk-ant-docs",
              ANTHROPIC_BASE_URL: api.url,
              RUBRIC_STUDIO_DATA_DIR: dataDir,
            },
          ),
        );
      }
    } finally {
      await api.close();
    }
    const trustApi = await startFakeMessagesApi({ respond: trustJudge });
    let trustRunId: string;
    try {
      const env = {
        ANTHROPIC_API_KEY: "sk-ant-docs",
        ANTHROPIC_BASE_URL: trustApi.url,
        RUBRIC_STUDIO_DATA_DIR: dataDir,
      };
      trustRunId = await storeRun(
        ["eval", "--config", TRUST_SUITE, "--store", "--no-cache", "--reporter", "json"],
        env,
      );
      const calibrated = await runCli(["calibrate", "--config", TRUST_SUITE, "--store"], {
        cwd: ROOT,
        timeoutMs: 120_000,
        env,
      });
      if (![0, 1].includes(calibrated.code ?? -1))
        throw new Error(`calibrate failed (exit ${calibrated.code}):\n${calibrated.stderr}`);
    } finally {
      await trustApi.close();
    }
    const suites = (await (await fetch(`${app.url}/api/suites`)).json()) as
      { suites?: { id: string; name: string }[] } | { id: string; name: string }[];
    const list = Array.isArray(suites) ? suites : (suites.suites ?? []);
    const suiteId = list.find((s) => s.name === SUITE)?.id;
    const trustSuiteId = list.find((s) => s.name === TRUST_SUITE)?.id;
    if (!suiteId || !trustSuiteId)
      throw new Error(
        `no suite named ${SUITE} or ${TRUST_SUITE} in ${JSON.stringify(suites).slice(0, 300)}`,
      );

    const out = path.join(ROOT, "docs");
    await mkdir(out, { recursive: true });
    const page = await browser.newPage({ viewport: VIEWPORT });
    // DOCS_SHOTS=a.png,b.png photographs only those (the others stay as they are).
    const only = process.env.DOCS_SHOTS?.split(",").filter(Boolean);
    for (const shot of SHOTS.filter((s) => !only || only.includes(s.file))) {
      await page.goto(`${app.url}${shot.url({ suiteId, runIds, trustSuiteId, trustRunId })}`);
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
