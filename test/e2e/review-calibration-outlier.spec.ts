import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { startFakeMessagesApi } from "../support/fake-messages-api";
import { runCli } from "../support/run-cli";
import { HOSTILE_REASONING, anchorReply } from "./calibration-fixtures";

// Issue #14, in a real browser: a calibration of a rubric two evals share
// queues each missed anchor once, and the calibration view counts the same;
// labelling an outlier shows what the criterion asks and the other anchors,
// but nothing of the suite's label or the judge's score (not in the queue's
// why, not in the header, not in the HTML sent) until the person answered.

const FILE = "review-outlier.yaml";
const SUITE = `rubrics:
  support:
    criteria:
      - name: cites the policy
        description: "Names the refund window."
        examples:
          - { response: "Refunds within 30 days of purchase.", score: 1.0 }
          - { response: "Ask support maybe.", score: 0.0 }
      - name: polite
        description: "Polite tone."
        examples:
          - { response: "Happy to help with that!", score: 1.0 }
          - { response: "Whatever.", score: 0.0 }
evals:
  - name: refund answer
    response: "Yes, within 30 days."
    rubric: { ref: support }
  - name: refund answer again
    response: "Yes, within 30 days of purchase."
    rubric: { ref: support }
`;
let dir: string;
let suiteId: string;

test.beforeAll(async ({ browser }) => {
  test.setTimeout(180_000);
  dir = await mkdtemp(path.join(os.tmpdir(), "rs-e2e-outlier-"));
  await writeFile(path.join(dir, FILE), SUITE);
  // The stand-in judges "Ask support maybe." 0.7 and "Whatever." 0.4: both labelled 0, both outliers, in each eval.
  const api = await startFakeMessagesApi({ respond: (request) => anchorReply(request) });
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
  const page = await browser.newPage();
  await page.goto("/suites");
  const href = await page
    .getByTestId("suite-row")
    .filter({ hasText: FILE })
    .getByRole("link")
    .first()
    .getAttribute("href");
  suiteId = /\/suites\/([0-9a-f-]{36})/.exec(href ?? "")![1]!;
  await page.close();
});
test.afterAll(async () => dir && rm(dir, { recursive: true, force: true }));

test("the calibration view and the queue count an anchor of a shared rubric once", async ({
  page,
}) => {
  await page.goto(`/suites/${suiteId}/calibration`);
  await expect(page.getByTestId("calibration-outliers")).toHaveText("2");
  await expect(page.getByTestId("calibration-outlier-misses")).toHaveText(
    "missed 4 times over the evals sharing a rubric",
  );
  await page.goto(`/suites/${suiteId}/review?reason=calibration_outlier`);
  await expect(page.getByTestId("review-item")).toHaveCount(2);
  await expect(page.getByTestId("review-detail")).toHaveText([
    "the judge and the suite's label differ (in 2 evals sharing the rubric: refund answer, refund answer again)",
    "the judge and the suite's label differ (in 2 evals sharing the rubric: refund answer, refund answer again)",
  ]);
});

test("labelling an outlier shows the criterion and the other anchors, and nothing of the answer until it is given", async ({
  page,
}) => {
  await page.goto(`/suites/${suiteId}/review?reason=calibration_outlier`);
  await page.getByTestId("reviewer-input").fill("Ana");
  await page.getByTestId("reviewer-save").click();
  await page
    .locator('[data-testid=review-item][data-criterion="cites the policy"]')
    .getByTestId("claim")
    .click();
  await expect(page.getByTestId("label-title")).toContainText("cites the policy");
  await expect(page.getByTestId("candidate")).toHaveText("Ask support maybe.");
  await expect(page.getByTestId("label-asks")).toHaveText("Names the refund window.");
  // The other anchor only: the item's own (labelled 0.00) is not listed.
  await expect(page.getByTestId("label-anchors")).toContainText(
    "Refunds within 30 days of purchase. → 1.00",
  );
  await expect(page.getByTestId("label-anchors")).not.toContainText("Ask support maybe.");
  const body = page.locator("body");
  await expect(body).not.toContainText("labelled 0.00");
  await expect(body).not.toContainText("judged");
  // Not in what the server sent either (the page's HTML and its inline data).
  const html = await (await page.request.get(page.url())).text();
  expect(html).not.toContain("0.70");
  expect(html).not.toContain("Mentions support, not the window");
  expect(html).not.toContain("labelled 0.00");

  // Answered (key 1 = 0.00), the judge's verdict is there to see.
  await page.getByTestId("label-form").focus();
  await page.keyboard.press("1");
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("label-saved")).toContainText("Labelled 0.00 by Ana.");
  await page.getByTestId("toggle-verdicts").click();
  await expect(page.getByTestId("judge-verdicts")).toContainText("0.70");
  await expect(page.getByTestId("judge-verdicts")).toContainText(HOSTILE_REASONING);
});
