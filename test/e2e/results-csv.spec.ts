import { readFile } from "node:fs/promises";
import { parse } from "csv-parse/sync";
import { expect, test } from "@playwright/test";
import { FILLERS, seedRuns, XSS_NAME, type Seeded } from "./results-seed";

// The run page's "Download results (CSV)" in Chromium: the file a user saves
// has one row per stored result, the hostile eval's name as plain text.

let seeded: Seeded;
let runId: string;
test.beforeAll(async () => {
  seeded = await seedRuns({ tag: "results-csv", rounds: 1 });
  runId = seeded.runIds[0]!;
});
test.afterAll(async () => seeded?.close());

test("the run page downloads its results as CSV, one row per result", async ({ page }) => {
  await page.goto(`/runs/${runId}`);
  const link = page.getByTestId("results-csv");
  await expect(link).toBeVisible();
  const [download] = await Promise.all([page.waitForEvent("download"), link.click()]);
  expect(download.suggestedFilename()).toBe(`run-${runId}.csv`);
  const text = await readFile((await download.path())!, "utf8");
  const rows = parse(text, { columns: true }) as Record<string, string>[];
  expect(rows).toHaveLength(FILLERS + 7);
  expect(rows.filter((r) => r.status === "failed")).toHaveLength(2);
  expect(rows.some((r) => r.eval === XSS_NAME)).toBe(true);
});
