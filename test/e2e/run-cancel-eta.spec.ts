import { expect, test, type Page } from "@playwright/test";
import { startFakeMessagesApi, type FakeMessagesApi } from "../support/fake-messages-api";
import { spawnDashboard, type SpawnedDashboard } from "./spawn-dashboard";

// The run page's live progress, against a dashboard whose worker grades for
// real through the stand-in Messages API, slowed down so that a person could
// watch: the ETA shows, comes down as results land and gives way to done; and
// Cancel stops the scheduling of judge calls, and the page shows the run
// cancelled. The worker grades 8 calls at a time, so results land in waves.

const LATENCY_MS = 2000;
let api: FakeMessagesApi;
let dashboard: SpawnedDashboard;

test.beforeAll(async () => {
  test.setTimeout(150_000);
  api = await startFakeMessagesApi({ latencyMs: LATENCY_MS, respond: () => ({ verdict: { reasoning: "States the fact.", score: 0.9 } }) });
  dashboard = await spawnDashboard({ host: "127.0.0.1", env: { ANTHROPIC_API_KEY: "sk-ant-test-0123456789", ANTHROPIC_BASE_URL: api.url } });
});
test.afterAll(async () => {
  await dashboard?.stop();
  await api?.close();
});

/** A suite of `n` evals, one judge call each. */
function suiteYaml(tag: string, n: number): string {
  const evals = Array.from({ length: n }, (_, i) => `  - name: fact ${i + 1}\n    response: "Fact number ${i + 1} (${tag})."\n    rubric: "States fact ${i + 1}."\n`);
  return `evals:\n${evals.join("")}`;
}

async function startRun(page: Page, tag: string, evals: number): Promise<string> {
  const yaml = suiteYaml(tag, evals);
  const created = await page.request.post(`${dashboard.url}/api/suites`, { data: { name: `${tag} suite`, yaml } });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  const started = await page.request.post(`${dashboard.url}/api/suites/${id}/runs`, { data: { yaml } });
  expect(started.status()).toBe(201);
  return ((await started.json()) as { runId: string }).runId;
}

const etaOf = (summary: string) => {
  const match = /ETA (?:(\d+) min )?(\d+) s/.exec(summary);
  return match ? Number(match[1] ?? 0) * 60 + Number(match[2]) : null;
};

test("the ETA shows while a run goes, comes down as results land, and gives way to done", async ({ page }) => {
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

test("Cancel stops the scheduling of judge calls and the page shows the run cancelled", async ({ page }) => {
  test.setTimeout(90_000);
  const before = api.requests.length;
  const runId = await startRun(page, "cancel", 40);
  await page.goto(`${dashboard.url}/runs/${runId}`);
  const progress = page.getByTestId("run-progress");
  // Let the first wave land, then cancel.
  await expect.poll(async () => Number(await progress.getAttribute("data-done")), { timeout: 30_000 }).toBeGreaterThan(0);
  await page.getByRole("button", { name: "Cancel run" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Cancel requested" })).toBeVisible();

  await expect(progress).toHaveAttribute("data-status", "cancelled", { timeout: 30_000 });
  await expect(page.getByTestId("run-progress-summary")).toContainText("cancelled");
  // What was not graded is reported skipped, not passed; once the page has
  // refreshed on the stream's end, its own counts say the same.
  const countOf = (status: string) => async () => Number(await page.getByTestId("run-counts").getByTestId(`count-${status}`).locator("div").last().textContent());
  await expect.poll(async () => (await countOf("passed")()) + (await countOf("skipped")()), { timeout: 15_000 }).toBe(40);
  const skipped = await countOf("skipped")();
  const passed = await countOf("passed")();
  expect(skipped).toBeGreaterThan(0);
  await expect(page.getByTestId("run-counts").getByTestId("count-skipped")).toContainText(String(skipped));
  // No new judge call went out after the cancel: the stand-in saw only the calls in flight then.
  const calls = api.requests.length - before;
  expect(calls).toBe(passed);
  expect(calls).toBeLessThan(40);
  await page.goto(`${dashboard.url}/runs`);
  await expect(page.locator(`a[href="/runs/${runId}"]`).first()).toBeVisible();
});
