import { expect, test } from "@playwright/test";
import { seedSuite } from "./results-seed";

// The run page's bars per matrix cell, as a new user saw them: prompts #4 and #5 (0 of 1
// passed, mean 0.00) had no bar and no "0%", reading as empty rows; prompt #6 (mean 0.50,
// nothing passed) showed only its mean bar; and the "100%" beside a full bar was cut at the
// chart's right edge ("100"). Every cell now shows both bars (a thin mark for 0) and their labels.

const SCORES = [0.9, 0.9, 0.9, 0, 0, 0.5];
const YAML = `evals:
  - name: arithmetic
    response: "Four."
    rubric: "Gives the right number."
    threshold: 0.7
    matrix:
      prompts: [${SCORES.map((_, i) => `"item ${i + 1}"`).join(", ")}]
`;

let seeded: Awaited<ReturnType<typeof seedSuite>>;
test.beforeAll(async () => {
  test.setTimeout(120_000);
  seeded = await seedSuite({
    tag: "matrix-bars",
    yaml: YAML,
    respond: (r) => {
      const item = Number(/<user_prompt>\nitem (\d+)\n/.exec(r.user)?.[1]);
      return { verdict: { reasoning: `Item ${item}.`, score: SCORES[item - 1]! } };
    },
  });
});
test.afterAll(async () => {
  await seeded?.close();
});

test("every cell shows its bars and labels, 0% and 0.00 included, none cut at the edge", async ({
  page,
}) => {
  await page.goto(`/runs/${seeded.runId}`);
  const plot = page.getByTestId("matrix-bars-plot");
  await expect(plot.locator(".recharts-bar-rectangle").first()).toBeVisible();
  // Two bars per cell, each with some width: the 0% and 0.00 ones are a thin mark, not nothing.
  const rects = plot.locator(".recharts-bar-rectangle path");
  await expect(rects).toHaveCount(2 * SCORES.length);
  for (const rect of await rects.all()) {
    const box = (await rect.boundingBox())!;
    expect(box.width).toBeGreaterThan(1);
  }
  const labels = plot.locator(".recharts-label-list text");
  const texts = (await labels.allTextContents()).map((t) => t.trim());
  expect(texts.filter((t) => t === "100%")).toHaveLength(3);
  expect(texts.filter((t) => t === "0%")).toHaveLength(3);
  expect(texts.filter((t) => t === "0.00")).toHaveLength(2);
  expect(texts).toContain("0.50");
  // No label runs past the chart's right edge.
  const svg = (await plot.locator(".recharts-wrapper > svg").boundingBox())!;
  for (const label of await labels.all()) {
    const box = (await label.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(svg.x + svg.width);
  }
});

// A walk's finding: a cell whose every result deferred (its judge's provider has no key) drew the
// same green sliver as a cell where nothing passed. It is grey, as in the heatmap, and says why.
const MIXED = `providers:
  nokey: { type: openai, base_url: "http://127.0.0.1:9/v1", api_key_env: RS_E2E_UNSET_KEY }
evals:
  - name: arithmetic
    response: "Four."
    rubric: "Gives the right number."
    threshold: 0.7
    matrix:
      models: [claude-sonnet-4-6, "nokey:small"]
`;

test.describe("a cell with nothing graded", () => {
  let mixed: Awaited<ReturnType<typeof seedSuite>>;
  test.beforeAll(async () => {
    test.setTimeout(120_000);
    mixed = await seedSuite({
      tag: "matrix-bars-deferred",
      yaml: MIXED,
      respond: () => ({ verdict: { reasoning: "Right.", score: 0 } }),
    });
  });
  test.afterAll(async () => {
    await mixed?.close();
  });

  test("draws its pass-rate mark grey with 'nothing graded', where a graded 0% stays green", async ({
    page,
  }) => {
    await page.goto(`/runs/${mixed.runId}`);
    const plot = page.getByTestId("matrix-bars-plot");
    await expect(plot.locator(".recharts-bar-rectangle").first()).toBeVisible();
    const texts = (await plot.locator(".recharts-label-list text").allTextContents()).map((t) =>
      t.trim(),
    );
    expect(texts).toContain("nothing graded");
    expect(texts).toContain("0%");
    // The pass-rate series is the second: one mark per cell, graded green, deferred grey.
    const passMarks = plot.locator(".recharts-bar").nth(1).locator(".recharts-bar-rectangle path");
    await expect(passMarks).toHaveCount(2);
    const fills = await passMarks.evaluateAll((paths) => paths.map((p) => p.getAttribute("fill")));
    expect(fills.sort()).toEqual(["#2b8a3e", "#adb5bd"]);
  });
});

// A walk's finding: the heatmap and the bars put claude-haiku-4-5 before claude-sonnet-4-6 (by name)
// where the file lists sonnet first. They follow the suite's order, as the CLI and the table do.
const LISTED = `evals:
  - name: arithmetic
    response: "Four."
    rubric: "Gives the right number."
    threshold: 0.7
    matrix:
      models: [claude-sonnet-4-6, claude-haiku-4-5]
      prompts: ["item 1", "item 2"]
`;

test.describe("the cells' order", () => {
  let listed: Awaited<ReturnType<typeof seedSuite>>;
  test.beforeAll(async () => {
    test.setTimeout(120_000);
    listed = await seedSuite({
      tag: "matrix-bars-order",
      yaml: LISTED,
      respond: () => ({ verdict: { reasoning: "Right.", score: 0.9 } }),
    });
  });
  test.afterAll(async () => {
    await listed?.close();
  });

  test("is the matrix's, judge models as listed, in the heatmap and the bars", async ({ page }) => {
    await page.goto(`/runs/${listed.runId}`);
    const heatmap = page.getByTestId("matrix-heatmap");
    await expect(heatmap.locator("tbody th")).toHaveText(["claude-sonnet-4-6", "claude-haiku-4-5"]);
    await expect(heatmap.getByTestId("matrix-column")).toHaveText(["prompt #1", "prompt #2"]);
    const plot = page.getByTestId("matrix-bars-plot");
    await expect(plot.locator(".recharts-bar-rectangle").first()).toBeVisible();
    // Each bar's label (its tick's title: the cell's full name), top to bottom.
    await expect(plot.locator("text > title")).toHaveText([
      "claude-sonnet-4-6 · prompt #1",
      "claude-sonnet-4-6 · prompt #2",
      "claude-haiku-4-5 · prompt #1",
      "claude-haiku-4-5 · prompt #2",
    ]);
  });
});
