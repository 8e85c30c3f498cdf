import { expect, test, type Page } from "@playwright/test";
import {
  EVIDENCE,
  FILLERS,
  seedRuns,
  XSS_NAME,
  XSS_REASONING,
  XSS_RESPONSE,
  type Seeded,
} from "./results-seed";

// The runs list, a run's page (counts, filter, sort, paging, matrix) and an
// eval's detail (evidence highlighted, reasoning, tree path), seeded by the
// real CLI against the stand-in judge. Hostile text in a name, a reasoning
// and a candidate must show as text: no dialog, the literal markup visible.

let seeded: Seeded;
let runId: string;
test.beforeAll(async () => {
  seeded = await seedRuns({ tag: "run-pages", rounds: 1 });
  runId = seeded.runIds[0]!;
});
test.afterAll(async () => seeded?.close());

/** Fails the test if any script the page was fed runs (alert, or an onerror handler). */
function failOnDialog(page: Page) {
  const dialogs: string[] = [];
  page.on("dialog", (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  return dialogs;
}

const TOTAL = FILLERS + 7; // fillers, the hostile eval, the tree, 4 matrix cells, the broken judge

test("the run is listed with its counts, newest first", async ({ page }) => {
  await page.goto("/runs");
  const row = page.locator(`[data-testid=run-row][data-run-id="${runId}"]`);
  await expect(row).toBeVisible();
  await expect(row).toContainText(seeded.suiteName);
  await expect(row).toContainText("cli");
  await expect(row.locator("[data-count=passed]")).toHaveText(String(FILLERS + 4));
  await expect(row.locator("[data-count=failed]")).toHaveText("2");
  await expect(row.locator("[data-count=judge_error]")).toHaveText("1");
  await expect(row.locator("[data-count=deferred]")).toHaveText("0");
  await expect(row.locator("[data-count=skipped]")).toHaveText("0");
});

test("the run page counts match, and filtering, sorting and scrolling happen on the server", async ({
  page,
}) => {
  await page.goto(`/runs/${runId}`);
  await expect(page.getByTestId("count-passed")).toContainText(String(FILLERS + 4));
  await expect(page.getByTestId("count-failed")).toContainText("2");
  await expect(page.getByTestId("count-judge_error")).toContainText("1");
  await expect(page.getByTestId("count-deferred")).toContainText("0");
  await expect(page.getByTestId("count-skipped")).toContainText("0");
  await expect(page.getByTestId("run-cost")).not.toContainText("unknown");

  // One page of rows at a time: the first rows, then the last ones on the last page.
  const rows = page.getByTestId("result-row");
  await expect(page.getByTestId("results-range")).toContainText(`Rows 1–`);
  await expect(page.getByTestId("results-range")).toContainText(`of ${TOTAL}`);
  const firstRows = await rows.locator("td:first-child").allInnerTexts();
  expect(firstRows.length).toBeLessThan(TOTAL);
  await page.getByTestId("page-last").click();
  await expect(page.getByTestId("results-range")).toContainText(`–${TOTAL} of ${TOTAL}`);
  await expect(rows.last()).toHaveAttribute("aria-rowindex", String(TOTAL + 1));
  await expect(rows.last()).toBeVisible();
  const lastRows = await rows.locator("td:first-child").allInnerTexts();
  // The last page is the last 50 rows: those past the first page are new.
  expect(lastRows).toHaveLength(50);
  expect(lastRows.filter((name) => !firstRows.includes(name))).toHaveLength(TOTAL - 50);

  // Filtering by status narrows the table to those rows.
  await page.getByLabel("Status").selectOption("failed");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page.getByTestId("results-range")).toContainText("1–2 of 2");
  await expect(rows).toHaveCount(2);
  for (const status of await rows.evaluateAll((els) =>
    els.map((e) => e.getAttribute("data-status")),
  ))
    expect(status).toBe("failed");

  // Text search, then sort by score descending.
  await page.getByLabel("Status").selectOption("");
  await page.getByLabel("Search").fill("filler 1");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page.getByTestId("results-range")).toContainText("of 10");
  await page.getByRole("link", { name: "Score" }).click();
  await expect(page).toHaveURL(/sort=score/);
  await page.getByRole("link", { name: "Score ▲" }).click();
  await expect(page).toHaveURL(/sort=score&dir=desc/);
  await expect(rows).toHaveCount(10);
  // filler 01 scored 0.90 like the rest; the search kept only the ten "filler 1x" names.
  await expect(rows.first()).toContainText("0.90");
});

test("the matrix heatmap drills into a cell", async ({ page }) => {
  await page.goto(`/runs/${runId}`);
  const cells = page.getByTestId("matrix-cell");
  await expect(cells).toHaveCount(4);
  await cells.filter({ hasText: "0.40" }).first().click();
  // The cell's coordinates, not a name search, select its rows.
  await expect(page).toHaveURL(/model=claude-haiku-4-5&prompt=\d/);
  await expect(page.getByTestId("cell-filter")).toContainText("claude-haiku-4-5 · prompt #");
  await expect(page.getByTestId("results-range")).toContainText("1–1 of 1");
  await expect(page.getByTestId("result-row")).toContainText("model=claude-haiku-4-5");
});

test("the eval detail highlights evidence, shows reasoning, and renders hostile text as text", async ({
  page,
}) => {
  const dialogs = failOnDialog(page);
  await page.goto(`/runs/${runId}`);
  await page.getByLabel("Search").fill("hostile eval");
  await page.getByRole("button", { name: "Filter" }).click();
  const link = page.getByTestId("result-row").getByRole("link");
  await expect(link).toHaveText(XSS_NAME);
  await link.click();

  await expect(page.getByTestId("result-name")).toHaveText(XSS_NAME);
  await expect(page.getByTestId("candidate")).toContainText(XSS_RESPONSE);
  const marks = page.getByTestId("evidence-mark");
  await expect(marks.first()).toContainText(EVIDENCE);
  await expect(page.getByTestId("criterion")).toHaveCount(2);
  await expect(page.getByTestId("criterion-reasoning").first()).toHaveText(XSS_REASONING);
  await expect(page.getByTestId("criterion").first()).toContainText("weight 2");
  await expect(page.getByTestId("criterion").first()).toContainText("required: held");

  // No markup from the models or the suite became elements.
  expect(await page.locator("main img, img[src=x]").count()).toBe(0);
  // (Next's own inline scripts carry the page data as JSON strings; what matters is that none came from the text.)
  expect(
    await page
      .locator(
        "[data-testid=result-name] *, [data-testid=candidate] script, [data-testid=criteria] script",
      )
      .count(),
  ).toBe(0);
  await page.waitForTimeout(300);
  expect(dialogs).toEqual([]);
});

test("a decision tree's path is drawn as steps", async ({ page }) => {
  await page.goto(`/runs/${runId}/results/${encodeURIComponent("release tree")}`);
  const tree = page.getByTestId("tree-path");
  await expect(tree).toContainText("Does the answer name a release version?");
  await expect(tree).toContainText("yes");
  await expect(tree).toContainText("names the version");
});
