import { expect, test } from "@playwright/test";
import { REGRESSING, seedRuns, type Seeded } from "./results-seed";

// A suite's history: its runs over time, a score trend per eval with a point
// per run, and two runs compared (newly failing results named).

let seeded: Seeded;
test.beforeAll(async () => {
  seeded = await seedRuns({ tag: "history", rounds: 2 });
});
test.afterAll(async () => seeded?.close());

test("the suite's runs, their trend charts and their comparison", async ({ page }) => {
  await page.goto("/runs");
  await page.locator(`[data-run-id="${seeded.runIds[1]}"]`).getByRole("link", { name: seeded.suiteName }).click();
  await expect(page.getByRole("heading", { name: `History of ${seeded.suiteName}` })).toBeVisible();
  const rows = page.getByTestId("run-row");
  await expect(rows).toHaveCount(2);
  // Newest first.
  await expect(rows.first()).toHaveAttribute("data-run-id", seeded.runIds[1]!);

  // The default comparison is the newest run against the one before it.
  const comparison = page.getByTestId("run-comparison");
  await expect(page.getByTestId("newly-failing")).toHaveText(`${REGRESSING} newly failing`);
  await expect(page.getByTestId("newly-passing")).toHaveText("0 newly passing");
  await expect(comparison.getByTestId("comparison-row").first()).toContainText("newly failing");
  await expect(comparison).toContainText("−0.70");

  // A trend per eval, drawn in the browser with one point per run.
  const chart = page.getByTestId("score-trend").filter({ hasText: "filler 01" });
  await expect(chart.locator(".recharts-line-dot, .recharts-dot")).toHaveCount(2);
});
