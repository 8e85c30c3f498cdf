import { mkdir } from "node:fs/promises";
import { expect, test, type Page } from "@playwright/test";
import type { FakeMessagesApi } from "../support/fake-messages-api";
import { spawnGradingDashboard, type SpawnedDashboard } from "./spawn-dashboard";

// Issue 12, items 3 and 5, watched the way a person watches a run: a suite
// with a jury of three, a 2 × 2 matrix and a dozen more evals, graded by the
// dashboard's worker through a slowed stand-in judge. While it runs, the page
// has one set of counts, its header and its progress line agree, the table
// fills as results land, and the progress counts judge calls. Afterwards the
// counts are still one set; the matrix cell where nothing passed (mean 0.58
// under a 0.7 threshold) is not green, and the cell picked is highlighted.

const LATENCY_MS = 2500;
const FILLERS = 12;
const RESULTS = 1 + 4 + FILLERS;
const CALLS = 3 * 3 + 4 + FILLERS;
const SHOTS = process.env.E2E_SCREENSHOTS;

let api: FakeMessagesApi;
let dashboard: SpawnedDashboard;
let stop: () => Promise<void>;

test.beforeAll(async () => {
  test.setTimeout(150_000);
  ({ api, dashboard, stop } = await spawnGradingDashboard({
    latencyMs: LATENCY_MS,
    respond: (r) => {
      const weak =
        JSON.stringify(r.body.model).includes("haiku") && r.user.includes("Matrix answer.");
      return {
        verdict: { reasoning: weak ? "Partly right." : "Right.", score: weak ? 0.58 : 0.9 },
      };
    },
  }));
});
test.afterAll(async () => {
  await stop?.();
});

function suiteYaml(): string {
  const lines = [
    "evals:",
    "  - name: juried answer",
    '    response: "The 2.3.0 release added per-tenant rate limits."',
    "    rubric:",
    "      criteria:",
    '        - { name: accurate, description: "Accurate." }',
    '        - { name: complete, description: "Complete." }',
    '        - { name: clear, description: "Clear." }',
    "    judge: { jury: { size: 3 } }",
    "  - name: matrix summary",
    '    response: "Matrix answer."',
    '    rubric: "Summarises the release."',
    "    threshold: 0.7",
    "    matrix:",
    "      models: [claude-sonnet-4-6, claude-haiku-4-5]",
    '      prompts: ["Summarize.", "Summarize in one line."]',
  ];
  for (let i = 1; i <= FILLERS; i++)
    lines.push(
      `  - name: filler ${String(i).padStart(2, "0")}`,
      `    response: "Filler answer ${i}."`,
      `    rubric: "Answers filler ${i}."`,
    );
  return `${lines.join("\n")}\n`;
}

async function startRun(page: Page, name: string): Promise<string> {
  const yaml = suiteYaml();
  const created = await page.request.post(`${dashboard.url}/api/suites`, { data: { name, yaml } });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  const started = await page.request.post(`${dashboard.url}/api/suites/${id}/runs`, {
    data: { yaml },
  });
  expect(started.status()).toBe(201);
  return ((await started.json()) as { runId: string }).runId;
}

/** Every figure of the page at one instant: the header, the progress line, the count cards and the table. */
async function figures(page: Page) {
  return page.evaluate(() => {
    const text = (id: string) => document.querySelector(`[data-testid="${id}"]`)?.textContent ?? "";
    const progress = document.querySelector("[data-testid=run-progress]");
    const cards = [
      ...document.querySelectorAll("[data-testid=run-counts] [data-testid^=count-]"),
    ].map((el) => Number(el.lastElementChild?.textContent ?? "0"));
    return {
      header: text("run-header-results"),
      summary: text("run-progress-summary"),
      status: progress?.getAttribute("data-status") ?? "",
      done: Number(progress?.getAttribute("data-done") ?? "-1"),
      calls: Number(progress?.getAttribute("data-calls") ?? "-1"),
      countBlocks: document.querySelectorAll(
        "[data-testid=run-counts], [data-testid=run-progress-counts]",
      ).length,
      passedCards: document.querySelectorAll("[data-testid=count-passed]").length,
      counted: cards.reduce((a, b) => a + b, 0),
      rows: document.querySelectorAll("[data-testid=result-row]").length,
      empty: document.querySelectorAll("[data-testid=results-empty]").length,
    };
  });
}

test("mid-run and after, the run page has one set of counts that agree, and the table fills as results land", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const runId = await startRun(page, "live counts suite");
  await page.goto(`${dashboard.url}/runs/${runId}`);
  const progress = page.getByTestId("run-progress");

  // Mid-run: results have landed, the run is not done.
  await expect
    .poll(async () => Number(await progress.getAttribute("data-done")), { timeout: 40_000 })
    .toBeGreaterThan(0);
  let seenMidRun = false;
  let firstLanded: number | undefined;
  let shotMidRun = false;
  let rowsMidRun = 0;
  const deadline = Date.now() + 40_000;
  while (Date.now() < deadline) {
    const f = await figures(page);
    if (f.status !== "running") break;
    seenMidRun = true;
    expect(f.countBlocks, JSON.stringify(f)).toBe(1);
    expect(f.passedCards, JSON.stringify(f)).toBe(1);
    // The header, the progress line and the cards are one snapshot.
    expect(f.header, JSON.stringify(f)).toBe(`${f.done} of ${RESULTS} results`);
    expect(f.summary, JSON.stringify(f)).toContain(`${f.done} of ${RESULTS} results`);
    expect(f.summary, JSON.stringify(f)).toContain(`${f.calls} of ${CALLS} judge calls`);
    expect(f.counted, JSON.stringify(f)).toBe(f.done);
    // The table fills as results land: within a couple of seconds of the first, it no longer says "results appear here".
    firstLanded ??= f.done > 0 ? Date.now() : undefined;
    if (firstLanded !== undefined && Date.now() - firstLanded > 2500) {
      expect(f.empty, JSON.stringify(f)).toBe(0);
      expect(f.rows, JSON.stringify(f)).toBeGreaterThan(0);
    }
    rowsMidRun = Math.max(rowsMidRun, f.rows);
    if (SHOTS && f.rows > 0 && f.done < RESULTS - 4 && !shotMidRun) {
      shotMidRun = true;
      await mkdir(SHOTS, { recursive: true });
      await page.screenshot({ path: `${SHOTS}/run-mid.png`, fullPage: true });
    }
    await page.waitForTimeout(200);
  }
  expect(seenMidRun).toBe(true);
  // Rows appeared while the run was still running, not only at the end.
  expect(rowsMidRun).toBeGreaterThan(0);
  expect(rowsMidRun).toBeLessThan(RESULTS);

  await expect(progress).toHaveAttribute("data-status", "completed", { timeout: 40_000 });
  await expect(page.getByTestId("run-progress-summary")).toContainText(
    `completed · ${RESULTS} of ${RESULTS} results · 100%`,
  );
  await expect(page.getByTestId("result-row")).toHaveCount(RESULTS);
  const after = await figures(page);
  expect(after.countBlocks).toBe(1);
  expect(after.passedCards).toBe(1);
  expect(after.header).toBe(`${RESULTS} of ${RESULTS} results`);
  expect(after.counted).toBe(RESULTS);
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/run-after.png`, fullPage: true });

  // Opened again later: still one set of counts, now with no progress block.
  await page.reload();
  await expect(page.getByTestId("run-counts")).toHaveCount(1);
  await expect(page.getByTestId("count-passed")).toHaveCount(1);
  await expect(page.getByTestId("count-passed")).toContainText(String(RESULTS - 2));
  await expect(page.getByTestId("count-failed")).toContainText("2");
});

test("a matrix cell where nothing passed is not green, and the cell picked is highlighted", async ({
  page,
}) => {
  test.setTimeout(90_000);
  const runId = await startRun(page, "matrix suite");
  await page.goto(`${dashboard.url}/runs/${runId}`);
  await expect(page.getByTestId("run-progress")).toHaveAttribute("data-status", "completed", {
    timeout: 60_000,
  });
  const cells = page.getByTestId("matrix-cell");
  await expect(cells).toHaveCount(4);
  const haiku = cells.and(page.locator("[data-model=claude-haiku-4-5]"));
  const sonnet = cells.and(page.locator("[data-model=claude-sonnet-4-6]"));
  await expect(haiku.first()).toContainText("0.58");
  await expect(haiku.first()).toContainText("0 of 1 graded passed");
  for (const cell of await haiku.all()) await expect(cell).toHaveAttribute("data-tone", "fail");
  for (const cell of await sonnet.all()) await expect(cell).toHaveAttribute("data-tone", "pass");
  // Not green: the failing cells' colour differs from the passing ones'.
  const bg = (el: Element) => getComputedStyle(el).backgroundColor;
  expect(await haiku.first().evaluate(bg)).not.toBe(await sonnet.first().evaluate(bg));

  await haiku.first().click();
  await expect(page).toHaveURL(/model=claude-haiku-4-5/);
  await expect(page.getByTestId("result-row")).toHaveCount(1);
  const picked = page.locator("[data-testid=matrix-cell][aria-current=true]");
  await expect(picked).toHaveCount(1);
  await expect(picked).toHaveAttribute("data-model", "claude-haiku-4-5");
  // The bar chart takes the figure's width, and its cell names are whole.
  const plot = page.getByTestId("matrix-bars-plot");
  await expect(plot).toBeVisible();
  const [plotWidth, figureWidth] = await Promise.all([
    plot.evaluate((el) => el.getBoundingClientRect().width),
    page.getByTestId("matrix-bars").evaluate((el) => el.clientWidth),
  ]);
  expect(plotWidth).toBeGreaterThan(figureWidth * 0.8);
  await expect(plot.locator("text").filter({ hasText: "claude-haiku-4-5" }).first()).toBeVisible();
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/run-cell-picked.png`, fullPage: true });
});
