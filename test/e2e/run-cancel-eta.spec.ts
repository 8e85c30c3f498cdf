import { expect, test, type Page } from "@playwright/test";
import type { FakeMessagesApi } from "../support/fake-messages-api";
import { spawnGradingDashboard, type SpawnedDashboard } from "./spawn-dashboard";

// The run page's live progress, against a dashboard whose worker grades for
// real through the stand-in Messages API, slowed down so that a person could
// watch: the ETA shows, comes down as results land and gives way to done; and
// Cancel stops the judge calls inside a running eval, and the page shows it
// skipped (cancelled). The worker grades 8 calls at a time, so results land in waves.

const LATENCY_MS = 2000;
let api: FakeMessagesApi;
let dashboard: SpawnedDashboard;
let stop: () => Promise<void>;

test.beforeAll(async () => {
  test.setTimeout(150_000);
  ({ api, dashboard, stop } = await spawnGradingDashboard({
    latencyMs: LATENCY_MS,
    respond: () => ({ verdict: { reasoning: "States the fact.", score: 0.9 } }),
  }));
});
test.afterAll(async () => {
  await stop?.();
});

/** A suite of `n` evals, one judge call each. */
function suiteYaml(tag: string, n: number): string {
  const evals = Array.from(
    { length: n },
    (_, i) =>
      `  - name: fact ${i + 1}\n    response: "Fact number ${i + 1} (${tag})."\n    rubric: "States fact ${i + 1}."\n`,
  );
  return `evals:\n${evals.join("")}`;
}

async function startRun(page: Page, tag: string, evals: number): Promise<string> {
  const yaml = suiteYaml(tag, evals);
  const created = await page.request.post(`${dashboard.url}/api/suites`, {
    data: { name: `${tag} suite`, yaml },
  });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  const started = await page.request.post(`${dashboard.url}/api/suites/${id}/runs`, {
    data: { yaml },
  });
  expect(started.status()).toBe(201);
  return ((await started.json()) as { runId: string }).runId;
}

const etaOf = (summary: string) => {
  const match = /ETA (?:(\d+) min )?(\d+) s/.exec(summary);
  return match ? Number(match[1] ?? 0) * 60 + Number(match[2]) : null;
};

test("the ETA shows while a run goes, comes down as results land, and gives way to done", async ({
  page,
}) => {
  test.setTimeout(90_000);
  const runId = await startRun(page, "eta", 32);
  await page.goto(`${dashboard.url}/runs/${runId}`);
  const summary = page.getByTestId("run-progress-summary");
  const progress = page.getByTestId("run-progress");

  // Watch the summary the way a person would, until the run is done.
  const etas: number[] = [];
  const deadline = Date.now() + 60_000;
  while ((await progress.getAttribute("data-status")) !== "completed" && Date.now() < deadline) {
    const eta = etaOf((await summary.textContent()) ?? "");
    if (eta !== null && etas[etas.length - 1] !== eta) etas.push(eta);
    await page.waitForTimeout(150);
  }
  await expect(progress).toHaveAttribute("data-status", "completed");
  // An ETA was shown, more than one as results landed, and the last before
  // done was lower than the first: the run was seen coming to an end.
  expect(etas.length, `ETAs seen: ${etas.join(", ")}`).toBeGreaterThan(1);
  expect(etas[etas.length - 1]!, `ETAs seen: ${etas.join(", ")}`).toBeLessThan(etas[0]!);
  await expect(summary).toContainText("completed · 32 of 32 results · 100%");
  await expect(summary).toContainText("ETA —");
  await expect(page.getByTestId("run-counts").getByTestId("count-passed")).toContainText("32");
});

/** One eval of 12 criteria graded by a jury of 3: 36 judge calls in one cell. */
function juryYaml(tag: string): string {
  const criteria = Array.from(
    { length: 12 },
    (_, i) => `        - { name: point ${i + 1}, description: "Covers point ${i + 1} (${tag})." }`,
  );
  return `evals:\n  - name: release notes\n    response: "Release 2.3 adds per-tenant rate limits (${tag})."\n    judge:\n      jury: { size: 3 }\n    rubric:\n      criteria:\n${criteria.join("\n")}\n`;
}

test("Cancel stops the judge calls inside a running eval (12 criteria × a jury of 3), and the eval shows skipped (cancelled), not passed", async ({
  page,
}) => {
  test.setTimeout(90_000);
  const before = api.requests.length;
  const yaml = juryYaml("cancel");
  const created = await page.request.post(`${dashboard.url}/api/suites`, {
    data: { name: "cancel suite", yaml },
  });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  const started = await page.request.post(`${dashboard.url}/api/suites/${id}/runs`, {
    data: { yaml },
  });
  expect(started.status()).toBe(201);
  const { runId } = (await started.json()) as { runId: string };
  await page.goto(`${dashboard.url}/runs/${runId}`);
  const progress = page.getByTestId("run-progress");

  // The worker's first wave of 8 calls is at the stand-in (each takes 2 s): cancel now.
  await expect
    .poll(() => api.requests.length - before, { timeout: 30_000 })
    .toBeGreaterThanOrEqual(8);
  await page.getByRole("button", { name: "Cancel run" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Cancel requested" })).toBeVisible();
  await expect(progress).toHaveAttribute("data-status", "cancelled", { timeout: 30_000 });

  // Calls stopped: only those in flight when the cancel was seen were made, and no more come.
  const calls = api.requests.length - before;
  expect(calls).toBeLessThanOrEqual(16);
  await page.waitForTimeout(2 * LATENCY_MS);
  expect(api.requests.length - before).toBe(calls);

  // The eval was not graded: skipped (cancelled), never passed, never counted as a budget skip.
  await page.reload();
  const row = page.getByTestId("result-row");
  await expect(row).toHaveCount(1);
  await expect(row).toHaveAttribute("data-status", "skipped");
  await expect(row).toContainText("skipped (cancelled)");
  const counts = page.getByTestId("run-counts");
  await expect(counts.getByTestId("count-skipped")).toContainText("Skipped (cancelled)");
  await expect(counts.getByTestId("count-skipped").locator("div").last()).toHaveText("1");
  await expect(counts.getByTestId("count-passed").locator("div").last()).toHaveText("0");
  await expect(counts).not.toContainText("budget");
  await expect(row).not.toContainText("budget");
  await page.goto(`${dashboard.url}/runs`);
  await expect(page.locator(`a[href="/runs/${runId}"]`).first()).toBeVisible();
  // Its pass rate says the run was cancelled, never a clean rate of what little was graded.
  const listed = page.locator(`[data-testid=run-row][data-run-id="${runId}"]`);
  await expect(listed.getByTestId("run-pass-rate")).toContainText("(cancelled");
});
