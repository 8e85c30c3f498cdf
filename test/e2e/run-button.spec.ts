import { expect, test } from "@playwright/test";
import { createSuite, setText, unique } from "./suite-editor";

// Issue 5, running: the editor's Run button queues the saved version on the
// server, the run page follows it live over SSE until it is done, and the run
// is listed. The test server has no judge key, so every eval defers.

test("Run on the seeded suite queues a run whose live progress reaches done, then lists it", async ({
  page,
}) => {
  await page.goto("/suites");
  await page
    .getByTestId("suite-row")
    .filter({ hasText: "examples/rubric-eval.yaml" })
    .getByRole("link")
    .first()
    .click();
  await expect(
    page.getByRole("heading", { level: 1, name: "examples/rubric-eval.yaml" }),
  ).toBeVisible();

  await page.getByRole("button", { name: "Run", exact: true }).click();
  await expect(page).toHaveURL(/\/runs\/[0-9a-f-]{36}(\?watch=1)?(#results)?$/, {
    timeout: 15_000,
  });
  const runId = new URL(page.url()).pathname.split("/").pop()!;

  const progress = page.getByTestId("run-progress");
  await expect(progress).toHaveAttribute("data-status", "completed", { timeout: 30_000 });
  const total = Number(await progress.getAttribute("data-total"));
  expect(total).toBeGreaterThan(0);
  await expect(progress).toHaveAttribute("data-done", String(total));
  await expect(page.getByTestId("run-progress-summary")).toContainText(
    `${total} of ${total} results · 100%`,
  );
  // One set of counts on the page, live and then refreshed from the server: they agree.
  await expect(page.getByTestId("count-deferred")).toHaveCount(1);
  await expect(page.getByTestId("run-counts").getByTestId("count-deferred")).toContainText(
    String(total),
  );
  await expect(page.getByTestId("run-header-results")).toHaveText(`${total} of ${total} results`);
  // A keyless server says why nothing was graded, under the header; each row gives the cause beside its badge, not "deferred: ..." again.
  await expect(page.getByTestId("deferred-note")).toContainText(
    "Nothing was graded: every result deferred. no judge key: set ANTHROPIC_API_KEY",
  );
  // Right under the header line, where one looks first, not below the cost cards.
  await expect(
    page.locator('[data-testid="run-header"] + [data-testid="deferred-note"]'),
  ).toBeVisible();
  const reason = page.getByTestId("result-reason-cell").first();
  await expect(reason).toHaveText("no judge key: set ANTHROPIC_API_KEY to grade for real");
  // The cause fits: two lines, not cut off.
  expect(await reason.evaluate((el) => el.scrollHeight <= el.clientHeight + 1)).toBe(true);

  await page.goto("/runs");
  await expect(page.locator(`a[href="/runs/${runId}"]`).first()).toBeVisible();
});

// New-user walk, item 1: Run with unsaved edits used to run the last saved
// version and drop the edits. Now it saves the editor's text as a new version
// and runs that one.
test("Save and run saves the unsaved edit as a version and grades it", async ({ page }) => {
  await createSuite(page, unique("save-and-run"));
  const suite = (threshold: string) =>
    `evals:\n  - name: billing\n    response: "Invoice 42 totaled $120.00."\n    rubric:\n      threshold: ${threshold}\n      criteria:\n        - name: correct total\n          description: "States the total."\n`;
  await setText(page, suite("0.7"));
  await page.getByRole("button", { name: "Save version" }).click();
  await expect(page.getByText("Unsaved changes")).toHaveCount(0);
  const suiteUrl = page.url();

  await setText(page, suite("0.8"));
  await expect(page.getByText("Unsaved changes")).toBeVisible();
  const run = page.getByTestId("run-button");
  await expect(run).toHaveText("Save and run");
  await expect(run).toHaveAttribute("title", /new version/);
  await run.click();
  await expect(page).toHaveURL(/\/runs\/[0-9a-f-]{36}(\?watch=1)?(#results)?$/, {
    timeout: 15_000,
  });
  const runId = new URL(page.url()).pathname.split("/").pop()!;
  await expect(page.getByTestId("run-progress")).toHaveAttribute("data-status", "completed", {
    timeout: 30_000,
  });
  const rows = (await (await page.request.get(`/api/runs/${runId}/results?limit=10`)).json()) as {
    rows: { threshold: number }[];
  };
  expect(rows.rows.map((r) => r.threshold)).toEqual([0.8]);

  await page.goto(suiteUrl);
  await page.waitForFunction(() => globalThis.__rubricStudioEditor !== undefined);
  expect(await page.evaluate(() => globalThis.__rubricStudioEditor!.getValue())).toContain(
    "threshold: 0.8",
  );
  await expect(page.getByTestId("run-button")).toHaveText("Run");
});

// Issue 10, Message Batches: "Run as batch" beside Run queues the run for the
// workers' batch path (half price, up to 24 h). Without a judge key here it
// defers like any run; what is checked is that the choice reaches the server.
test("Run as batch posts batch: true and the run completes", async ({ page }) => {
  await createSuite(page, unique("run-as-batch"));
  await setText(
    page,
    `evals:\n  - name: batched\n    response: "Invoice 42 totaled $120.00."\n    rubric: "States the total."\n`,
  );
  await page.getByRole("button", { name: "Save version" }).click();
  await expect(page.getByText("Unsaved changes")).toHaveCount(0);
  await page.getByTestId("run-as-batch").check();
  const posted = page.waitForRequest(
    (request) => request.method() === "POST" && /\/api\/suites\/[^/]+\/runs$/.test(request.url()),
  );
  await page.getByTestId("run-button").click();
  expect((await posted).postDataJSON()).toMatchObject({ batch: true });
  await expect(page).toHaveURL(/\/runs\/[0-9a-f-]{36}(\?watch=1)?(#results)?$/, {
    timeout: 15_000,
  });
  await expect(page.getByTestId("run-progress")).toHaveAttribute("data-status", "completed", {
    timeout: 30_000,
  });
});
