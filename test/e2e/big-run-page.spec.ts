import { expect, test } from "@playwright/test";
import { seedBigRun, type SeededRun } from "../../bench/seed-big-run";
import { createPrismaClient } from "../../lib/store/connection";
import { findEmbeddedServer } from "../../lib/store/embedded-postgres";
import { storeRunFigures } from "../../lib/store/run-figures";

// The run page of a run of 20,000 results (written straight into the dashboard's database): its
// counts are the hand count of what was seeded, its table opens at the first rows and pages on
// the server, and a status filter counts and lists only that status. The run is finished as
// finishRun finishes one, so the page reads the figures it kept (run-figures.ts).

const RESULTS = 20_000;
let big: SeededRun;
const rows = (page: import("@playwright/test").Page) => page.getByTestId("result-row");
const formatInt = (n: number) => n.toLocaleString("en-US");

test.beforeAll(async () => {
  test.setTimeout(600_000);
  const url = await findEmbeddedServer(process.env.E2E_DATA_DIR!);
  if (!url) throw new Error("the e2e server's embedded database is not running");
  big = await seedBigRun({
    url,
    results: RESULTS,
    criteria: 1,
    suiteName: `big-run-page-${Date.now()}.yaml`,
  });
  // Finished as finishRun finishes a run: its counts and heatmap kept with it, which the page reads.
  const prisma = createPrismaClient(url, { max: 1 });
  await storeRunFigures(prisma, { runId: big.runId });
  await prisma.$disconnect();
});

test("a 20,000-result run: the hand-counted figures, the first page, the next page, a status filter", async ({
  page,
}) => {
  await page.goto(`/runs/${big.runId}`);
  await expect(page.getByTestId("run-header-results")).toHaveText(
    `${formatInt(RESULTS)} of ${formatInt(RESULTS)} results`,
  );
  const total = Object.values(big.counts).reduce((a, b) => a + b, 0);
  expect(total).toBe(RESULTS);
  for (const status of ["passed", "failed", "deferred", "judge_error", "skipped"])
    await expect(page.getByTestId(`count-${status}`)).toHaveText(
      new RegExp(`\\D${big.counts[status] ?? 0}$`),
    );

  // The first page: the first rows in name order, of all 20,000.
  const range = page.getByTestId("results-range");
  await expect(range).toContainText("Rows 1–");
  await expect(range).toContainText(`of ${formatInt(RESULTS)}`);
  await expect(rows(page).first()).toContainText(big.firstName);

  // The next page (50 rows a page, by keyset), as the URL keeps it.
  await page.getByTestId("page-next").click();
  await expect(page).toHaveURL(/after=/);
  await expect(range).toContainText("Rows 51–");
  await expect(page.locator('[data-testid=result-row][aria-rowindex="52"]')).toBeVisible();

  // Filtered by status on the server: the count is the hand count, every row has that status.
  await page.goto(`/runs/${big.runId}`);
  await page.getByLabel("Status").selectOption("failed");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(/status=failed/);
  await expect(range).toContainText(`of ${formatInt(big.counts.failed!)}`);
  await expect(rows(page).first()).toBeVisible();
  expect(
    new Set(await rows(page).evaluateAll((els) => els.map((e) => e.getAttribute("data-status")))),
  ).toEqual(new Set(["failed"]));
});
