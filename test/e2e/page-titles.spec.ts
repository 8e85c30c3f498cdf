import { expect, test } from "@playwright/test";
import { seedRuns, seedSuite, type Seeded } from "./results-seed";

// From the new-user walk: every tab read "Rubric Studio", the browser's
// favicon request was a 404, and a matrix eval's trend chart was squashed
// flat by its own legend at common widths.

let seeded: Seeded;
test.beforeAll(async () => {
  seeded = await seedRuns({ tag: "titles", rounds: 1 });
});
test.afterAll(async () => seeded?.close());

test("each page has its own title, and the icon loads (no 404 on the way)", async ({ page }) => {
  const missing: string[] = [];
  page.on("response", (response) => {
    if (response.status() === 404) missing.push(response.url());
  });
  const runId = seeded.runIds[0]!;
  await page.goto("/suites");
  await expect(page).toHaveTitle("Rubric Studio · Suites");
  await page.goto("/runs");
  await expect(page).toHaveTitle("Rubric Studio · Runs");
  await page.goto(`/runs/${runId}`);
  await expect(page).toHaveTitle(`Rubric Studio · Run ${runId.slice(0, 8)}`);
  const icon = await page.locator('link[rel="icon"]').first().getAttribute("href");
  expect(icon).toBeTruthy();
  expect((await page.request.get(icon!)).status()).toBe(200);
  await page
    .locator(`a[href="/runs/${runId}/agreement"], [data-testid="result-row"] a`)
    .first()
    .click();
  await expect(page).toHaveTitle(/^Rubric Studio · (Result|Judge agreement) /);
  expect(missing).toEqual([]);
});

test("a 16-cell matrix eval's trend keeps its plot height; the legend wraps under it", async ({
  page,
}) => {
  const yaml = [
    "evals:",
    "  - name: matrix trend",
    '    response: "Sixteen ways."',
    '    rubric: "Summarises the release (legend)."',
    "    matrix:",
    "      models: [claude-sonnet-4-6, claude-haiku-4-5, claude-opus-4-1, claude-sonnet-4-5]",
    '      prompts: ["Summarize.", "Summarize in one line.", "Summarize for a customer.", "Summarize for the changelog."]',
    "",
  ].join("\n");
  const matrix = await seedSuite({
    tag: "legend",
    yaml,
    respond: () => ({ verdict: { reasoning: "ok", score: 0.8 } }),
  });
  try {
    await page.setViewportSize({ width: 1000, height: 900 });
    await page.goto("/runs");
    await page
      .locator(`[data-run-id="${matrix.runId}"]`)
      .getByRole("link", { name: matrix.suiteName })
      .click();
    await expect(page).toHaveTitle("Rubric Studio · Suite history");
    const chart = page.getByTestId("score-trend").filter({ hasText: "matrix trend" });
    await expect(chart.getByTestId("score-trend-legend").locator("li")).toHaveCount(16);
    const grid = chart.locator(".recharts-cartesian-grid");
    await expect(grid).toBeVisible();
    // The plot keeps its height (about 175 px of 220); recharts' own legend inside it left a sliver.
    expect(await grid.evaluate((el) => el.getBoundingClientRect().height)).toBeGreaterThan(165);
  } finally {
    await matrix.close();
  }
});
