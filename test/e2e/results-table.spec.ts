import { expect, test } from "@playwright/test";
import { seedBigRun, type SeededRun } from "../../bench/seed-big-run";
import { findEmbeddedServer } from "../../lib/store/embedded-postgres";
import { hydratedScroller } from "./results-seed";

// The results table of a 10,000-result run: a fixed-height scroller that holds
// only the rows in view, fetches more from the server as they scroll in,
// keeps its position in the URL, answers the keyboard, and filters and sorts
// on the server. The run is written straight into the dashboard's database
// (the CLI would need 10,000 judge calls).

const RESULTS = 10_000;
let big: SeededRun;

test.beforeAll(async () => {
  const url = await findEmbeddedServer(process.env.E2E_DATA_DIR!);
  if (!url) throw new Error("the e2e server's embedded database is not running");
  big = await seedBigRun({
    url,
    results: RESULTS,
    criteria: 1,
    suiteName: `results-table-10k-${Date.now()}.yaml`,
  });
});

const rows = (page: import("@playwright/test").Page) => page.getByTestId("result-row");

test("a 10,000-result run opens with its first rows, and scrolling to the end shows the last row", async ({
  page,
}) => {
  await page.goto(`/runs/${big.runId}`);
  await expect(page.getByTestId("results-range")).toContainText("Rows 1–");
  await expect(page.getByTestId("results-range")).toContainText("of 10,000");
  await expect(rows(page).first()).toContainText(big.firstName);
  // Virtualised: a few dozen rows in the page, not ten thousand.
  expect(await page.locator("[data-testid=results-table] tbody tr").count()).toBeLessThan(60);

  // Drag the scrollbar to the end: the last block is fetched (a loading row first), then the last row shows.
  const requests: string[] = [];
  page.on("request", (r) => {
    if (r.url().includes(`/api/runs/${big.runId}/results`)) requests.push(r.url());
  });
  await hydratedScroller(page).evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
  const last = rows(page).filter({ hasText: big.lastName });
  await expect(last).toBeVisible();
  await expect(last).toHaveAttribute("aria-rowindex", String(RESULTS + 1));
  await expect(page.getByTestId("results-range")).toContainText("–10,000 of 10,000");
  // Only the blocks in view were asked for, not the 99 blocks in between.
  expect(requests.length).toBeGreaterThan(0);
  expect(requests.length).toBeLessThanOrEqual(2);
  expect(requests.every((u) => /offset=99\d\d/.test(u))).toBe(true);

  // The position is in the URL, in pages of 50 rows: a reload opens at the last page.
  await expect(page).toHaveURL(/page=200/);
  await page.reload();
  await expect(page.getByTestId("results-range")).toContainText("Rows 9,951–");
  await expect(page.locator('[data-testid=result-row][aria-rowindex="9952"]')).toBeVisible();
});

test("rows scrolled into view are fetched, with a loading row until they come", async ({
  page,
}) => {
  await page.route(`**/api/runs/${big.runId}/results?**`, async (route) => {
    await new Promise((r) => setTimeout(r, 400));
    await route.continue();
  });
  await page.goto(`/runs/${big.runId}`);
  await hydratedScroller(page).evaluate((el) => el.scrollTo({ top: 5_000 * 40 }));
  await expect(page.getByTestId("results-loading-row").first()).toBeVisible();
  await expect(page.getByTestId("results-loading-row")).toHaveCount(0);
  const shown = await rows(page).evaluateAll((els) =>
    els.map((e) => Number(e.getAttribute("aria-rowindex"))),
  );
  expect(Math.min(...shown)).toBeLessThanOrEqual(5_002);
  expect(Math.max(...shown)).toBeGreaterThanOrEqual(5_010);
});

test("a failed fetch says so, and Retry fetches again", async ({ page }) => {
  let fail = true;
  await page.route(`**/api/runs/${big.runId}/results?**`, (route) =>
    fail
      ? route.fulfill({
          status: 503,
          contentType: "application/json",
          body: JSON.stringify({ error: { code: "unavailable", message: "database away" } }),
        })
      : route.continue(),
  );
  await page.goto(`/runs/${big.runId}`);
  await hydratedScroller(page).evaluate((el) => el.scrollTo({ top: 3_000 * 40 }));
  await expect(page.getByTestId("results-error-row").first()).toContainText("database away");
  fail = false;
  await page
    .getByTestId("results-error-row")
    .first()
    .getByRole("button", { name: "Retry" })
    .click();
  await expect(page.getByTestId("results-error-row")).toHaveCount(0);
  await expect(rows(page).first()).toBeVisible();
});

test("the keyboard moves through the rows: arrows, End and Home", async ({ page }) => {
  await page.goto(`/runs/${big.runId}`);
  const firstLink = rows(page).first().getByRole("link");
  await firstLink.focus();
  await page.keyboard.press("ArrowDown");
  await expect(page.locator(":focus")).not.toHaveText(big.firstName);
  await expect(page.locator("tr:focus-within")).toHaveAttribute("aria-rowindex", "3");
  await page.keyboard.press("End");
  await expect(page.locator(":focus")).toHaveText(big.lastName);
  await page.keyboard.press("ArrowUp");
  await expect(page.locator("tr:focus-within")).toHaveAttribute("aria-rowindex", String(RESULTS));
  await page.keyboard.press("Home");
  await expect(page.locator(":focus")).toHaveText(big.firstName);
  // Enter on a focused row opens the result.
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/results\//);
  await expect(page.getByTestId("result-name")).toHaveText(big.firstName);
});

test("filtering and sorting happen on the server over all 10,000 results", async ({ page }) => {
  await page.goto(`/runs/${big.runId}`);
  await page.getByLabel("Status").selectOption("judge_error");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(/status=judge_error/);
  const range = page.getByTestId("results-range");
  await expect(range).not.toContainText("of 10,000");
  const total = Number(/of ([\d,]+)/.exec((await range.innerText()) ?? "")![1]!.replace(/,/g, ""));
  expect(total).toBeGreaterThan(100);
  expect(total).toBeLessThan(1_000);
  // Scroll through to the end of the filtered set: every row is a judge error.
  await hydratedScroller(page).evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
  await expect(range).toContainText(`–${total.toLocaleString("en-US")} of`);
  await expect(page.getByTestId("results-loading-row")).toHaveCount(0);
  expect(
    new Set(await rows(page).evaluateAll((els) => els.map((e) => e.getAttribute("data-status")))),
  ).toEqual(new Set(["judge_error"]));

  // Sort by cost, highest first: the shown costs never go up.
  await page.getByRole("link", { name: "Cost" }).click();
  await page.getByRole("link", { name: "Cost ▲" }).click();
  await expect(page).toHaveURL(/sort=cost&dir=desc/);
  await expect(rows(page).first()).toBeVisible();
  const costs = (await rows(page).locator("td:nth-child(4)").allInnerTexts()).map((t) =>
    Number(t.replace(/[$,]/g, "")),
  );
  expect(costs.length).toBeGreaterThan(5);
  expect(costs).toEqual([...costs].sort((a, b) => b - a));

  // Nothing matches: the empty state, with the way out.
  await page.getByLabel("Search").fill("no eval is called this");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page.getByTestId("results-empty")).toContainText("Clear the filters");
});
