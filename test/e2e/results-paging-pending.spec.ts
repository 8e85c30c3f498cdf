import { expect, test } from "@playwright/test";
import { seedBigRun, type SeededRun } from "../../bench/seed-big-run";
import { findEmbeddedServer } from "../../lib/store/embedded-postgres";

// The pager says at once which rows it is loading and is disabled until they come: the server
// renders the next page, which takes seconds on a big run, and the footer must not go on reading
// "Rows 1–50" meanwhile. The server's answer is held back here, as a busy server's would be.

let run: SeededRun;

test.beforeAll(async () => {
  const url = await findEmbeddedServer(process.env.E2E_DATA_DIR!);
  if (!url) throw new Error("the e2e server's embedded database is not running");
  run = await seedBigRun({
    url,
    results: 200,
    criteria: 1,
    suiteName: `results-paging-${Date.now()}.yaml`,
  });
});

test("Next and Last show what they load at once, the pager disabled until the page arrives", async ({
  page,
}) => {
  await page.goto(`/runs/${run.runId}`);
  const range = page.getByTestId("results-range");
  await expect(range).toHaveText("Rows 1–50 of 200");
  await expect(page.getByTestId("results-scroller")).toHaveAttribute("data-hydrated", "true");

  // Each page the pager asks for is answered 3 s late.
  let release: () => void = () => {};
  await page.route(/\/runs\/[^/]+\?.*(after|last)=/, async (route) => {
    await new Promise<void>((resolve) => {
      release = resolve;
      setTimeout(resolve, 3_000);
    });
    await route.continue();
  });

  await page.getByTestId("page-next").click();
  await expect(range).toHaveText("Loading rows 51–100…", { timeout: 1_000 });
  await expect(page.getByTestId("page-last")).toHaveAttribute("aria-disabled", "true");
  release();
  await expect(range).toHaveText("Rows 51–100 of 200");
  await expect(page.getByTestId("page-last")).not.toHaveAttribute("aria-disabled");

  await page.getByTestId("page-last").click();
  await expect(range).toHaveText("Loading rows 151–200…", { timeout: 1_000 });
  await expect(page.getByTestId("page-first")).toHaveAttribute("aria-disabled", "true");
  release();
  await expect(range).toHaveText("Rows 151–200 of 200");
});
