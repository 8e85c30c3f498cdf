import { expect, test } from "@playwright/test";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { formatUsd } from "../../lib/engine/results/format-score";
import type { Report } from "../../lib/engine/results/report";
import { startFakeMessagesApi, type FakeMessagesApi } from "../support/fake-messages-api";
import { runCli } from "../support/run-cli";

// Issue 10, items 5 and 6, as a newcomer sees them: a suite graded by the real
// CLI (`eval --store`) against the stand-in Messages API, which emulates the
// prompt cache. The run page says what the prompt cache saved in dollars (net,
// reads, writes), the same figure the JSON report gives; a second, unchanged
// run says what its reused verdicts saved (what the first run paid). The
// editor's plan panel lists each eval with its naive, with-cache, batch and rerun cost.

// A rubric long enough (≈1,500 tokens) that its prefix is cached: the first call writes it, the others read it.
const GUIDANCE =
  "Judge only what the answer states, citing the release notes where they apply. ".repeat(75);
const FILE = `savings-${Date.now().toString(36)}.yaml`;
const SUITE = `evals:
  - name: release notes
    response: "The 2.3.0 release added per-tenant rate limits and fixed the login timeout."
    judge: { model: claude-sonnet-4-5 }
    rubric:
      criteria:
        - { name: accurate, description: "States the change correctly. ${GUIDANCE}" }
        - { name: names version, description: "Names the release version." }
        - { name: concise, description: "Two sentences at most." }
  - name: refund answer
    response: "Refunds are accepted within 30 days."
    judge: { model: claude-haiku-4-5 }
    rubric: "Names the refund window."
`;

let api: FakeMessagesApi;
let dir: string;
const runs: { id: string; report: Report }[] = [];

async function storeRun(): Promise<{ id: string; report: Report }> {
  const run = await runCli(
    ["eval", "--config", FILE, "--store", "--concurrency", "2", "--reporter", "json"],
    {
      cwd: dir,
      timeoutMs: 120_000,
      env: {
        ANTHROPIC_API_KEY: "sk-ant-test",
        ANTHROPIC_BASE_URL: api.url,
        RUBRIC_STUDIO_DATA_DIR: process.env.E2E_DATA_DIR,
      },
    },
  );
  const id = /(?:Storing|Stored) run ([0-9a-f-]{36})/.exec(run.stderr)?.[1];
  if (!id) throw new Error(`the CLI stored no run (exit ${run.code}):\n${run.stderr}`);
  return { id, report: JSON.parse(run.stdout) as Report };
}

test.beforeAll(async () => {
  test.setTimeout(240_000);
  dir = await mkdtemp(path.join(os.tmpdir(), "rs-e2e-savings-"));
  await writeFile(path.join(dir, FILE), SUITE);
  api = await startFakeMessagesApi({
    promptCache: true,
    respond: () => ({ verdict: { reasoning: "Stated correctly.", score: 0.9 } }),
  });
  runs.push(await storeRun(), await storeRun());
});
test.afterAll(async () => {
  await api?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const signed = (usd: number) => (usd < 0 ? `-${formatUsd(-usd)}` : formatUsd(usd));

test("the run page says what the prompt cache saved in dollars, as the report does", async ({
  page,
}) => {
  const { id, report } = runs[0]!;
  const cache = report.summary.savings.promptCache;
  // The stand-in read the cached rubric: there is a saving to show.
  expect(cache.readTokens).toBeGreaterThan(0);
  expect(cache.net.usd).toBeGreaterThan(0);
  await page.goto(`/runs/${id}`);
  const card = page.getByTestId("run-saved-prompt-cache");
  await expect(card).toContainText("Saved by the prompt cache");
  await expect(card).toContainText(signed(cache.net.usd!));
  await expect(card).toContainText(
    `reads ${signed(cache.reads.usd!)} · writes ${signed(cache.writes.usd!)}`,
  );
  await expect(page.getByTestId("run-saved-verdicts")).toContainText("$0");
  await page.screenshot({ path: test.info().outputPath("run-page.png"), fullPage: true });
});

test("an unchanged rerun says what its reused verdicts saved: what the first run paid", async ({
  page,
}) => {
  const [first, second] = runs;
  expect(second!.report.summary.savings.judgeCache.calls).toBe(
    first!.report.results.reduce((n, r) => n + r.judgeCalls, 0),
  );
  await page.goto(`/runs/${second!.id}`);
  await expect(page.getByTestId("run-saved-verdicts")).toContainText(
    formatUsd(first!.report.summary.costUsd),
  );
  await expect(page.getByTestId("run-reused")).toContainText(
    String(second!.report.summary.savings.judgeCache.calls),
  );
});

test("the editor's plan panel lists each eval's naive, with-cache, batch and rerun cost", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto("/suites");
  await page.getByTestId("suite-row").filter({ hasText: FILE }).getByRole("link").first().click();
  const table = page.getByTestId("plan-evals");
  await expect(table).toBeVisible({ timeout: 30_000 });
  await expect(table.getByRole("columnheader")).toHaveText([
    "Calls",
    "Naive",
    "With cache",
    "Batch",
    "Rerun",
  ]);
  // One group per eval: its name on a line of its own, its figures under it.
  const rows = table.locator("tbody");
  await expect(rows).toHaveCount(2);
  await expect(rows.getByRole("rowheader")).toHaveText(["release notes", "refund answer"]);
  await expect(rows.nth(0).getByRole("cell")).toHaveText(["3", /^\$\d/, /^\$\d/, /^\$\d/, "$0"]);
  await expect(rows.nth(1).getByRole("cell")).toHaveText(["1", /^\$\d/, /^\$\d/, /^\$\d/, "$0"]);
  // The long rubric is cached: with the cache it costs less than naive.
  const usd = async (cell: number) =>
    Number((await rows.nth(0).getByRole("cell").nth(cell).textContent())!.replace("$", ""));
  expect(await usd(2)).toBeLessThan(await usd(1));
  // With batches: half the cost with the cache, and in the totals too.
  expect(await usd(3)).toBeCloseTo((await usd(2)) / 2, 3);
  await expect(page.getByTestId("plan-batch-cost")).toHaveText(/^\$\d/);
  // Readable at the editor's width: every column shows, the last one (Rerun) was cut off behind a scrollbar.
  const panel = page.getByTestId("plan-panel");
  await page.screenshot({ path: test.info().outputPath("editor.png") });
  const [tableBox, panelBox] = [await table.boundingBox(), await panel.boundingBox()];
  expect(tableBox!.x + tableBox!.width).toBeLessThanOrEqual(panelBox!.x + panelBox!.width + 1);
  await expect(table.getByRole("columnheader", { name: "Rerun" })).toBeInViewport({ ratio: 1 });
});
