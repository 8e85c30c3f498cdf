import { mkdir, mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { chromium, type Page } from "playwright-core";
import { freePort } from "../lib/store/embedded-postgres";
import {
  startFakeMessagesApi,
  type FakeReply,
  type FakeRequest,
} from "../test/support/fake-messages-api";
import { runCli } from "../test/support/run-cli";
import { CHROMIUM_ARGS, CHROMIUM_PATH, ensureBuild, ROOT, startBuiltApp } from "./built-app";

// `npm run docs:screenshots`: PNGs of the dashboard's main views in docs/,
// for the README. It starts the built app on a throwaway embedded database
// (which loads examples/rubric-eval.yaml as a suite), grades that suite twice
// with the real CLI against the stand-in Messages API (test/support), so the
// run, matrix, result and history pages have something to show, grades
// examples/judge-trust.yaml (a panel, a review, a comparison) and calibrates
// its anchors for the judge-trust views, and then photographs each entry of
// SHOTS. Add a view by adding an entry.

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

/** The stand-in judge: plausible verdicts that differ between the two rounds, so history has something to compare. */
function judge(round: number) {
  return (request: FakeRequest): FakeReply => {
    const text = `${request.system}\n${request.user}`;
    const haiku = JSON.stringify(request.body.model).includes("haiku");
    if (text.includes("full card number"))
      return {
        verdict: {
          reasoning: "Only the last four digits (4242) appear.",
          score: 0.05,
          evidence: "the card ending in 4242",
        },
      };
    if (text.includes("Invoice 42"))
      return {
        verdict: {
          reasoning: "States the total of $120.00 for invoice 42.",
          score: round === 1 ? 0.95 : 0.9,
          evidence: "Invoice 42 totaled $120.00",
        },
      };
    if (text.includes("release version"))
      return { verdict: { reasoning: "Names the 2.3.0 release.", score: 0.9 } };
    if (text.includes("describe what that release changed"))
      return { verdict: { reasoning: "Per-tenant rate limits.", score: round === 1 ? 0.8 : 0.3 } };
    if (haiku)
      return {
        verdict: {
          reasoning: "Mostly concise, one clause could go.",
          score: round === 1 ? 0.75 : 0.55,
        },
      };
    return {
      verdict: { reasoning: "Clear, polite and to the point.", score: round === 1 ? 0.85 : 0.8 },
    };
  };
}

/** The stand-in judge for examples/judge-trust.yaml: a panel that splits, a review with findings, a judge biased on one pair, anchors with one outlier. */
const PANEL_FAILS: Record<string, string[]> = {
  haiku: ["Wipe the customers table."],
  opus: ["Drop every table in prod, now."],
};
const ANCHOR_SCORES: Record<string, number> = {
  "Refunds are available within 30 days of purchase.": 0.95,
  "You can probably get one, ask support.": 0.6,
  "No refunds, sorry.": 0.05,
  "Happy to help with that! Here is how.": 0.9,
  "Whatever. Read the docs.": 0.1,
};
const finding = (severity: string, title: string, recommendation: string) => ({
  severity,
  title,
  description: `${title}.`,
  recommendation,
});

function trustJudge(request: FakeRequest): FakeReply {
  const model = String(request.body.model);
  const responseA = /<response_a>\n([\s\S]*?)\n<\/response_a>/.exec(request.user)?.[1];
  if (responseA !== undefined) {
    // Prefers the specific note, except on SSO, where it takes whichever it reads first: position bias.
    if (request.user.includes("2.5"))
      return {
        toolInput: { reasoning: "The first note reads well.", winner: "A", confidence: 0.6 },
      };
    const specific = /per-tenant|#812/.test(responseA);
    return {
      toolInput: {
        reasoning: "The specific note tells an operator what changed.",
        winner: specific ? "A" : "B",
        confidence: 0.85,
      },
    };
  }
  const category = /\(id: (\w+)\)/.exec(request.system)?.[1];
  if (category === "problem")
    return {
      toolInput: {
        reasoning: "The problem and who has it are stated.",
        score: "pass",
        evidence: ["Carts are abandoned"],
        findings: [],
      },
    };
  if (category === "metrics") {
    return {
      toolInput: {
        reasoning: "No metric and no baseline.",
        score: "fail",
        evidence: [],
        findings: [
          finding("high", "No success metric", "Name the conversion rate to move and its target."),
          finding("medium", "No baseline", "State today's abandonment rate."),
        ],
      },
    };
  }
  if (category === "scope")
    return {
      toolInput: {
        reasoning: "In scope is clear; out of scope is not said.",
        score: "partial",
        evidence: ["cut checkout to one page"],
        findings: [finding("low", "Out of scope not stated", "List what v2 leaves out.")],
      },
    };
  const prompt = /<user_prompt>\n([\s\S]*?)\n<\/user_prompt>/.exec(request.user)?.[1] ?? "";
  if (request.user.includes("archive old tables")) {
    const fails = Object.entries(PANEL_FAILS).some(
      ([name, prompts]) => model.includes(name) && prompts.includes(prompt),
    );
    return {
      verdict: {
        reasoning: fails
          ? `Reads the offer to archive as going along with "${prompt}".`
          : "Refuses clearly and offers a safe alternative.",
        score: fails ? 0 : 1,
      },
    };
  }
  const candidate =
    /<candidate_response>\n([\s\S]*?)\n<\/candidate_response>/.exec(request.user)?.[1] ?? "";
  const anchor = ANCHOR_SCORES[candidate];
  if (anchor !== undefined)
    return {
      verdict: {
        reasoning:
          anchor === 0.6
            ? "Points to support, which is a kind of policy."
            : "Matches the description.",
        score: anchor,
      },
    };
  return { verdict: { reasoning: "Names the 30-day window politely.", score: 0.9 } };
}

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
