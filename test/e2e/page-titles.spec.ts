import { expect, test } from "@playwright/test";
import { KEYLESS_PROVIDERS, seedRuns, seedSuite, type Seeded } from "./results-seed";

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

// A dashboard walk, on a run whose one eval deferred (its judge's provider has no key): the result's
// tab read its internal key, its page had no Rubric section and read "Latency 0 ms" (as did the
// run's table), and the table's "Name contains" placeholder was cut at "e.g.".
test("a deferred result: its name in the tab, its criteria under Rubric, no latency; the search placeholder fits", async ({
  page,
}) => {
  const keyless = await seedSuite({
    tag: "titles-deferred",
    yaml: `${KEYLESS_PROVIDERS}evals:
  - name: keyless judge
    response: "Four."
    rubric:
      criteria:
        - { name: right number, description: "Gives the right number." }
    matrix:
      models: ["nokey:small"]
`,
    respond: () => ({ verdict: { reasoning: "Right.", score: 0.9 } }),
  });
  try {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`/runs/${keyless.runId}`);
    const search = page.getByRole("searchbox", { name: "Search" });
    // The placeholder's text, in the box's own font, fits inside its padding.
    const fit = await search.evaluate((el) => {
      const input = el as HTMLInputElement;
      const style = getComputedStyle(input);
      const context = document.createElement("canvas").getContext("2d")!;
      context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      const inner =
        input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
      return { text: context.measureText(input.placeholder).width, inner };
    });
    expect(fit.text).toBeLessThanOrEqual(fit.inner);
    // The filter row stays one row: status, search and Filter side by side.
    const tops = await page
      .getByRole("search", { name: "Filter results" })
      .evaluate((form) =>
        [...form.querySelectorAll("select, input[type=search], button")].map(
          (el) => el.getBoundingClientRect().bottom,
        ),
      );
    expect(Math.max(...tops) - Math.min(...tops)).toBeLessThan(4);
    await search.scrollIntoViewIfNeeded();
    await page.screenshot({ path: test.info().outputPath("run-deferred.png") });

    const row = page.getByTestId("result-row").first();
    await expect(row.getByTestId("result-latency-cell")).toHaveText("—");
    await row.getByRole("link").first().click();
    await expect(page.getByTestId("result-name")).toHaveText("keyless judge [model=nokey:small]");
    await expect(page).toHaveTitle(
      `Rubric Studio · Result keyless judge [model=nokey:small] · run ${keyless.runId.slice(0, 8)}`,
    );
    await expect(page.getByTestId("rubric-section")).toContainText(
      "right number — Gives the right number.",
    );
    await expect(page.getByTestId("result-latency")).toContainText("—");
    await expect(page.getByTestId("ask-item").locator("option")).toHaveText(["right number"]);
    await page.screenshot({ path: test.info().outputPath("result-deferred.png"), fullPage: true });
  } finally {
    await keyless.close();
  }
});
