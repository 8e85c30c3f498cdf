import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { runCli } from "../support/run-cli";
import { startFakeMessagesApi } from "../support/fake-messages-api";
import { ANCHOR_SUITE, HOSTILE_REASONING, anchorReply } from "./calibration-fixtures";

// Issue 5 §5.4, "Open the calibration view and see the anchors": the real CLI
// calibrates a suite twice against the stand-in (`calibrate --store`, the
// dashboard's embedded database), the second time with the judge 0.1 lower
// on every anchor; the view shows the newest calibration as the stand-in
// judged it, and the MAE of both runs as drift.

const FILE = "calibration-view.yaml";
let dir: string;

test.beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "rs-e2e-cal-"));
  await writeFile(path.join(dir, FILE), ANCHOR_SUITE);
  for (const shift of [0.1, 0]) {
    const api = await startFakeMessagesApi({ respond: (request) => anchorReply(request, shift) });
    try {
      const run = await runCli(["calibrate", "--config", FILE, "--store"], {
        cwd: dir,
        timeoutMs: 120_000,
        env: {
          ANTHROPIC_API_KEY: "sk-ant-test",
          ANTHROPIC_BASE_URL: api.url,
          RUBRIC_STUDIO_DATA_DIR: process.env.E2E_DATA_DIR,
        },
      });
      if (!/Stored calibration run [0-9a-f-]{36}/.test(run.stderr))
        throw new Error(`the CLI stored no calibration (exit ${run.code}):\n${run.stderr}`);
    } finally {
      await api.close();
    }
  }
});
test.afterAll(async () => rm(dir, { recursive: true, force: true }));

test("the calibration view shows each criterion's anchors as the judge scored them, the outliers and the drift", async ({
  page,
}) => {
  await page.goto("/suites");
  await page.getByTestId("suite-row").filter({ hasText: FILE }).getByRole("link").first().click();
  await expect(page.getByRole("heading", { level: 1, name: FILE })).toBeVisible();
  await page.getByRole("link", { name: "Calibration" }).click();
  await expect(page).toHaveURL(/\/suites\/[0-9a-f-]{36}\/calibration$/, { timeout: 30_000 });
  await expect(page.getByRole("heading", { level: 1, name: `Calibration of ${FILE}` })).toBeVisible(
    { timeout: 30_000 },
  );

  const policy = page.locator(
    '[data-testid=calibration-criterion][data-criterion="cites the policy"]',
  );
  const polite = page.locator('[data-testid=calibration-criterion][data-criterion="polite"]');
  // Newest run: judged 0.9 and 0.7 against labels 1 and 0 → MAE (0.1 + 0.7) / 2 = 0.400.
  await expect(policy.getByTestId("calibration-mae")).toHaveText("MAE 0.400");
  // judged 1.0 and 0.4 against 1 and 0 → MAE 0.200.
  await expect(polite.getByTestId("calibration-mae")).toHaveText("MAE 0.200");

  // The scatter: one point per graded anchor, drawn by recharts in the browser; the outlier in red.
  const scatter = policy.getByTestId("calibration-scatter");
  await expect(scatter).toHaveAttribute("data-points", "2");
  await expect(scatter).toHaveAttribute("data-outliers", "1");
  await expect(scatter.locator(".recharts-scatter-symbol")).toHaveCount(2);
  await expect(scatter.locator('.recharts-scatter-symbol path[fill="#ff6b6b"]')).toHaveCount(1);
  await expect(
    polite.getByTestId("calibration-scatter").locator(".recharts-scatter-symbol"),
  ).toHaveCount(2);
  await expect(polite.getByTestId("calibration-scatter")).toHaveAttribute("data-outliers", "1");

  // The outlier first, with what was graded, labelled, judged, the error and the judge's reasoning, as text.
  const outlier = policy.locator("[data-testid=calibration-items] tr[data-outlier=true]");
  await expect(outlier).toHaveCount(1);
  await expect(outlier.locator("td")).toHaveText([
    "anchor 2outlier",
    "Ask support maybe.",
    "0.00",
    "0.70",
    "+0.70",
    HOSTILE_REASONING,
  ]);
  const inside = policy.locator("[data-testid=calibration-items] tr[data-outlier=false]");
  await expect(inside.locator("td")).toHaveText([
    "anchor 1",
    "Refunds within 30 days of purchase.",
    "1.00",
    "0.90",
    "-0.10",
    "Quotes the 30-day window.",
  ]);
  expect(
    await page.evaluate(() => (window as unknown as { __xss?: number }).__xss),
  ).toBeUndefined();
  await expect(page.locator("img[src=x]")).toHaveCount(0);

  // Drift: both calibration runs, one line per criterion, one point per run.
  const drift = page.getByTestId("calibration-drift");
  await expect(drift.locator(".recharts-line")).toHaveCount(2);
  await expect(drift.locator(".recharts-line-dot, .recharts-dot")).toHaveCount(4);

  // Calibration runs are not eval runs: the runs list does not show this suite.
  await page.goto("/runs");
  await expect(page.getByText(FILE)).toHaveCount(0);
});
