import { expect, test } from "@playwright/test";

// Issue 5, running: the editor's Run button queues the saved version on the
// server, the run page follows it live over SSE until it is done, and the run
// is listed. The test server has no judge key, so every eval defers.

test("Run on the seeded suite queues a run whose live progress reaches done, then lists it", async ({ page }) => {
  await page.goto("/suites");
  await page.getByTestId("suite-row").filter({ hasText: "examples/rubric-eval.yaml" }).getByRole("link").first().click();
  await expect(page.getByRole("heading", { level: 1, name: "examples/rubric-eval.yaml" })).toBeVisible();

  await page.getByRole("button", { name: "Run", exact: true }).click();
  await expect(page).toHaveURL(/\/runs\/[0-9a-f-]{36}$/, { timeout: 15_000 });
  const runId = page.url().split("/").pop()!;

  const progress = page.getByTestId("run-progress");
  await expect(progress).toHaveAttribute("data-status", "completed", { timeout: 30_000 });
  const total = Number(await progress.getAttribute("data-total"));
  expect(total).toBeGreaterThan(0);
  await expect(progress).toHaveAttribute("data-done", String(total));
  await expect(page.getByTestId("run-progress-summary")).toContainText(`${total} of ${total} results · 100%`);
  // One set of counts on the page, live and then refreshed from the server: they agree.
  await expect(page.getByTestId("count-deferred")).toHaveCount(1);
  await expect(page.getByTestId("run-counts").getByTestId("count-deferred")).toContainText(String(total));
  await expect(page.getByTestId("run-header-results")).toHaveText(`${total} of ${total} results`);

  await page.goto("/runs");
  await expect(page.locator(`a[href="/runs/${runId}"]`).first()).toBeVisible();
});
