import { expect, test, type Page } from "@playwright/test";
import { seedBigRun, type SeededRun } from "../../bench/seed-big-run";
import { findEmbeddedServer } from "../../lib/store/embedded-postgres";

// The results table of a 10,000-result run: one page of 50 rows at a time, read by keyset (the
// pager's links carry the cursor of the row a page starts after or ends before), its position in
// the URL (a reload or the browser's Back opens the same page), and filters and sort on the
// server, kept from page to page. The run is written straight into the dashboard's database (the
// CLI would need 10,000 judge calls).

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

const rows = (page: Page) => page.getByTestId("result-row");
const names = (page: Page) => rows(page).locator("td:first-child").allInnerTexts();
const rowIndexes = (page: Page) =>
  rows(page).evaluateAll((els) => els.map((e) => Number(e.getAttribute("aria-rowindex"))));

test("the last page of 10,000 results and back: each page where it says, Back and reload keep it", async ({
  page,
}) => {
  await page.goto(`/runs/${big.runId}`);
  const range = page.getByTestId("results-range");
  await expect(range).toHaveText("Rows 1–50 of 10,000");
  await expect(rows(page)).toHaveCount(50);
  await expect(rows(page).first()).toContainText(big.firstName);
  await expect(page.getByTestId("page-previous")).toHaveAttribute("aria-disabled", "true");
  const first = await names(page);

  // Next, then Previous: the second page follows the first with no gap or repeat, and back.
  await page.getByTestId("page-next").click();
  await expect(range).toHaveText("Rows 51–100 of 10,000");
  await expect(page).toHaveURL(/after=/);
  expect(await rowIndexes(page)).toEqual(Array.from({ length: 50 }, (_, i) => 52 + i));
  const second = await names(page);
  expect(second.filter((n) => first.includes(n))).toEqual([]);
  await page.getByTestId("page-previous").click();
  await expect(range).toHaveText("Rows 1–50 of 10,000");
  expect(await names(page)).toEqual(first);

  // The deepest page: its last row is the run's last result.
  await page.getByTestId("page-last").click();
  await expect(page).toHaveURL(/last=1/);
  await expect(range).toHaveText("Rows 9,951–10,000 of 10,000");
  await expect(rows(page).last()).toContainText(big.lastName);
  await expect(rows(page).last()).toHaveAttribute("aria-rowindex", String(RESULTS + 1));
  await expect(page.getByTestId("page-next")).toHaveAttribute("aria-disabled", "true");
  const lastPage = await names(page);

  // The page before it, by its cursor; a reload of that URL opens the same rows.
  await page.getByTestId("page-previous").click();
  await expect(page).toHaveURL(/before=/);
  await expect(range).toHaveText("Rows 9,901–9,950 of 10,000");
  const beforeLast = await names(page);
  expect(beforeLast.filter((n) => lastPage.includes(n))).toEqual([]);
  await page.reload();
  await expect(range).toHaveText("Rows 9,901–9,950 of 10,000");
  expect(await names(page)).toEqual(beforeLast);
  // Next from there is the last page again.
  await page.getByTestId("page-next").click();
  await expect(range).toHaveText("Rows 9,951–10,000 of 10,000");
  expect(await names(page)).toEqual(lastPage);

  // The browser's Back walks the pages visited, and First is the first page.
  await page.goBack();
  await expect(range).toHaveText("Rows 9,901–9,950 of 10,000");
  await page.getByTestId("page-first").click();
  await expect(range).toHaveText("Rows 1–50 of 10,000");
  expect(await names(page)).toEqual(first);

  // A cursor edited in the URL opens the first page, not an error.
  await page.goto(`/runs/${big.runId}?after=bm90LWEtY3Vyc29y`);
  await expect(range).toHaveText("Rows 1–50 of 10,000");
});

test("filtering and sorting happen on the server over all 10,000 results, page after page", async ({
  page,
}) => {
  await page.goto(`/runs/${big.runId}`);
  await page.getByLabel("Status").selectOption("judge_error");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(/status=judge_error/);
  const range = page.getByTestId("results-range");
  await expect(range).not.toContainText("of 10,000");
  const total = Number(/of ([\d,]+)/.exec((await range.innerText()) ?? "")![1]!.replace(/,/g, ""));
  expect(total).toBeGreaterThan(100);
  expect(total).toBeLessThan(1_000);
  const statuses = async () =>
    new Set(await rows(page).evaluateAll((els) => els.map((e) => e.getAttribute("data-status"))));

  // Sort by cost, highest first: the shown costs never go up, on the first page and the last.
  await page.getByRole("link", { name: "Cost" }).click();
  await page.getByRole("link", { name: "Cost ▲" }).click();
  await expect(page).toHaveURL(/sort=cost&dir=desc/);
  await expect(rows(page).first()).toBeVisible();
  const costs = async () =>
    (await rows(page).locator("td:nth-child(4)").allInnerTexts()).map((t) =>
      Number(t.replace(/[$,]/g, "")),
    );
  const top = await costs();
  expect(top.length).toBe(50);
  expect(top).toEqual([...top].sort((a, b) => b - a));
  await page.getByTestId("page-last").click();
  await expect(page).toHaveURL(/status=judge_error&sort=cost&dir=desc&last=1/);
  await expect(range).toContainText(`–${total.toLocaleString("en-US")} of`);
  expect(await statuses()).toEqual(new Set(["judge_error"]));
  const bottom = await costs();
  expect(bottom).toEqual([...bottom].sort((a, b) => b - a));
  expect(Math.max(...bottom)).toBeLessThanOrEqual(Math.min(...top));

  // Nothing matches: the empty state, with the way out.
  await page.getByLabel("Search").fill("no eval is called this");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page.getByTestId("results-empty")).toContainText("Clear the filters");
});
