import { expect, test, type Page } from "@playwright/test";
import { seedSuite } from "./results-seed";
import { SOLO_SUITE, TRUST_SUITE, trustReply, XSS_FINDING, XSS_JUROR } from "./trust-seed";

// The judge-trust views and the matrix drill-down, on runs stored by the real
// CLI against the stand-in judge (trust-seed.ts): what a user sees of a panel
// that disagrees, a review's decision and findings, a position-biased
// pairwise judge, and one matrix cell's results.

let trust: Awaited<ReturnType<typeof seedSuite>>;
let solo: Awaited<ReturnType<typeof seedSuite>>;
test.beforeAll(async () => {
  test.setTimeout(180_000);
  trust = await seedSuite({ tag: "trust-views", yaml: TRUST_SUITE, respond: trustReply });
  solo = await seedSuite({
    tag: "trust-solo",
    yaml: SOLO_SUITE,
    respond: () => ({ verdict: { reasoning: "Fine.", score: 0.9 } }),
  });
});
test.afterAll(async () => {
  await trust?.close();
  await solo?.close();
});

/** Fails the test if any script the page was fed runs (alert, or an onerror handler). */
function failOnDialog(page: Page) {
  const dialogs: string[] = [];
  page.on("dialog", (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  return dialogs;
}

test("the agreement view: per-criterion statistics, the judge × judge matrix and the disagreements with each juror's reasoning", async ({
  page,
}) => {
  const dialogs = failOnDialog(page);
  await page.goto(`/runs/${trust.runId}`);
  await page.getByTestId("agreement-link").click();
  await expect(page).toHaveURL(new RegExp(`/runs/${trust.runId}/agreement$`));

  // One criterion, three units (the prompts), unanimous on one of them.
  const row = page.locator("[data-testid=agreement-row][data-item=refuses]");
  await expect(row).toContainText("refusal panel");
  await expect(row).toContainText("nominal");
  await expect(row.getByTestId("exact")).toHaveText("33%");
  await expect(row.getByTestId("alpha")).not.toHaveText("");
  await expect(page.getByTestId("alpha-chart").locator("svg.recharts-surface")).toBeVisible();

  // sonnet passes 1,2,3; haiku 1,2; opus only 2.
  const pair = (a: string, b: string) =>
    page.locator(
      `[data-testid=juror-matrix][data-eval="refusal panel"] [data-testid=juror-pair][data-a="${a}"][data-b="${b}"]`,
    );
  await expect(pair("claude-haiku-4-5", "claude-sonnet-4-6")).toContainText("67%");
  await expect(pair("claude-haiku-4-5", "claude-sonnet-4-6")).toContainText("2/3");
  await expect(pair("claude-opus-4-1", "claude-sonnet-4-6")).toContainText("33%");
  await expect(pair("claude-opus-4-1", "claude-sonnet-4-6")).toContainText("1/3");
  await expect(pair("claude-haiku-4-5", "claude-opus-4-1")).toContainText("2/3");
  await expect(pair("claude-sonnet-4-6", "claude-opus-4-1")).toContainText("1/3");

  // Prompts 1 and 3 split the panel; prompt 2 was unanimous. (The review panel split on one category: the third row;
  // the model matrix's two judge models, 0.9 against 0.4, split on both of its prompts: two more.)
  await expect(page.getByTestId("disagreement-count")).toContainText("5");
  await expect(
    page
      .getByTestId("disagreement")
      .filter({ hasText: "model matrix" })
      .getByTestId("disagreement-result"),
  ).toHaveText(["model matrix [prompt=#1]", "model matrix [prompt=#2]"]);
  const rows = page.getByTestId("disagreement").filter({ hasText: "refusal panel" });
  await expect(rows).toHaveCount(2);
  const review = page.getByTestId("disagreement").filter({ hasText: "checkout prd panel" });
  await expect(review.getByTestId("disagreement-item")).toHaveText("Problem");
  await expect(
    review.locator("[data-judge=claude-opus-4-1] [data-testid=verdict-label]"),
  ).toHaveText("partial");
  await expect(
    page.locator(
      '[data-testid=juror-matrix][data-eval="checkout prd panel"] [data-testid=juror-pair][data-a=claude-opus-4-1][data-b=claude-sonnet-4-6]',
    ),
  ).toContainText("1/2");
  await expect(rows.getByTestId("disagreement-result")).toHaveText([
    "refusal panel [prompt=#1]",
    "refusal panel [prompt=#3]",
  ]);
  const first = rows.first();
  await expect(
    first.locator("[data-judge=claude-sonnet-4-6] [data-testid=verdict-label]"),
  ).toHaveText("pass");
  await expect(
    first.locator("[data-judge=claude-opus-4-1] [data-testid=verdict-label]"),
  ).toHaveText("fail");
  await expect(
    first.locator("[data-judge=claude-opus-4-1] [data-testid=verdict-reasoning]"),
  ).toHaveText(`${XSS_JUROR} (item 1)`);
  await expect(
    rows.nth(1).locator("[data-judge=claude-haiku-4-5] [data-testid=verdict-reasoning]"),
  ).toHaveText("claude-haiku-4-5 on item 3: complies");

  // The link opens that result.
  await first.getByTestId("disagreement-result").click();
  await expect(page.getByTestId("result-name")).toHaveText("refusal panel [prompt=#1]");
  expect(await page.locator("img[src=x]").count()).toBe(0);
  await page.waitForTimeout(300);
  expect(dialogs).toEqual([]);
});

test("a single-judge run has no agreement link, and its agreement page explains how to configure a jury or panel", async ({
  page,
}) => {
  await page.goto(`/runs/${solo.runId}`);
  await expect(page.getByTestId("count-passed")).toContainText("1");
  await expect(page.getByTestId("agreement-link")).toHaveCount(0);
  await page.goto(`/runs/${solo.runId}/agreement`);
  const empty = page.getByTestId("agreement-empty");
  await expect(empty).toContainText("No eval in this run was graded by more than one judge");
  await expect(empty).toContainText("jury: { size: 3 }");
  await expect(empty).toContainText("panel: [claude-sonnet-4-6, claude-haiku-4-5]");
});

test("a review result: the decision badge, findings grouped by severity with counts, categories and next steps", async ({
  page,
}) => {
  const dialogs = failOnDialog(page);
  await page.goto(`/runs/${trust.runId}/results/${encodeURIComponent("checkout prd")}`);
  await expect(page.getByTestId("decision-badge")).toHaveText("fail");
  await expect(page.getByTestId("decision-rationale")).toContainText("critical");

  const groups = page.getByTestId("severity-group");
  // Critical first, info last; no empty group for low.
  await expect(groups).toHaveCount(4);
  expect(
    await groups.evaluateAll((els) => els.map((e) => e.getAttribute("data-severity"))),
  ).toEqual(["critical", "high", "medium", "info"]);
  await expect(
    page.locator("[data-testid=severity-group][data-severity=medium] [data-testid=severity-count]"),
  ).toHaveText("2");
  await expect(
    page.locator(
      "[data-testid=severity-group][data-severity=critical] [data-testid=finding-title]",
    ),
  ).toHaveText("No success metric");
  await expect(
    page
      .locator("[data-testid=severity-group][data-severity=medium] [data-testid=finding-title]")
      .nth(1),
  ).toHaveText(XSS_FINDING);

  await expect(page.locator("[data-testid=review-category][data-score=pass]")).toContainText(
    "problem",
  );
  await expect(page.locator("[data-testid=review-category][data-score=fail]")).toContainText(
    "No metric at all.",
  );
  await expect(page.getByTestId("immediate-steps")).toContainText("No success metric");
  await expect(page.getByTestId("recommended-steps")).toContainText("Vague target");
  await expect(page.getByTestId("rerun-command")).toHaveText(
    "rubric-studio review --config 'trust-views.yaml' --filter '^checkout prd$'",
  );
  expect(await page.locator("img[src=x]").count()).toBe(0);
  await page.waitForTimeout(300);
  expect(dialogs).toEqual([]);
});

test("a review by a panel that splits: human review, the judges' own decisions, their agreement and the split category", async ({
  page,
}) => {
  await page.goto(`/runs/${trust.runId}/results/${encodeURIComponent("checkout prd panel")}`);
  // Majority of two decisions (pass, conditional) has no majority: a person decides.
  await expect(page.getByTestId("decision-badge").first()).toHaveText("human review");
  const multi = page.getByTestId("multi-judge");
  await expect(multi).toContainText("2 judges, majority");
  await expect(multi.getByTestId("review-agreement")).toHaveText("agreement 75%");
  await expect(multi.getByTestId("judge-decision")).toHaveCount(2);
  await expect(multi.getByTestId("review-disagreement")).toHaveText(
    /problem\s*pass\s*partial|problem\s*partial\s*pass/,
  );
  await expect(page.locator("[data-testid=review-category][data-score=partial]")).toContainText(
    "problem",
  );
  await expect(page.getByTestId("findings")).toHaveCount(0);
});

test("a pairwise run whose judge favours position A: every pair flagged position-biased, both orders side by side, win rates with intervals", async ({
  page,
}) => {
  await page.goto(`/runs/${trust.runId}/results/${encodeURIComponent("notes v1 vs v2")}`);
  await expect(page.getByTestId("position-bias")).toContainText("100%");
  await expect(page.getByTestId("position-bias")).toContainText("2 of 2 pairs");
  await expect(page.getByTestId("position-bias")).toContainText("2 favour first");
  // Biased pairs count as ties: no winner.
  await expect(page.getByTestId("pairwise-winner")).toContainText("tie");
  await expect(page.getByTestId("rate-tie")).toContainText("100%");
  await expect(page.getByTestId("rate-A")).toContainText("0%");
  await expect(page.getByTestId("rate-A")).toContainText("95% CI 0%–66%");

  const pairs = page.getByTestId("pair");
  await expect(pairs).toHaveCount(2);
  for (const pair of await pairs.all()) {
    await expect(pair).toHaveAttribute("data-biased", "true");
    await expect(pair.getByTestId("bias-flag")).toHaveText(
      "position-biased (favours the first slot)",
    );
    await expect(pair.getByTestId("order-original")).toContainText("verdict A");
    await expect(pair.getByTestId("order-swapped")).toContainText("verdict A (its A is our B) → B");
  }
  await expect(pairs.first()).toContainText("2.3 adds per-tenant rate limits (100 rps).");
  await expect(page.getByTestId("win-rate-chart").locator("svg.recharts-surface")).toBeVisible();
});

test("the matrix view: bars per cell, and a click on a cell lists exactly that cell's results", async ({
  page,
}) => {
  await page.goto(`/runs/${trust.runId}`);
  await expect(page.getByTestId("matrix-cell")).toHaveCount(7); // the panel's 3 prompts, 2 models × 2 prompts
  await expect(
    page.getByTestId("matrix-bars").locator(".recharts-bar-rectangle").first(),
  ).toBeVisible();

  // The panel's prompt #1 (no judge-model axis): a name search for "prompt=#1]" would also list the model matrix's two prompt-#1 cells.
  await page.locator('[data-testid=matrix-cell][data-model=""][data-prompt="1"]').click();
  await expect(page).toHaveURL(/[?&]prompt=1/);
  await expect(page.getByTestId("cell-filter")).toContainText("(judges as configured) · prompt #1");
  await expect(page.getByTestId("results-range")).toContainText("1–1 of 1");
  await expect(page.getByTestId("result-row")).toHaveText(/refusal panel \[prompt=#1\]/);

  // A model × prompt cell, then back to every cell.
  await page
    .locator('[data-testid=matrix-cell][data-model="claude-haiku-4-5"][data-prompt="2"]')
    .click();
  await expect(page.getByTestId("results-range")).toContainText("1–1 of 1");
  await expect(page.getByTestId("result-row")).toContainText(
    "model matrix [model=claude-haiku-4-5, prompt=#2]",
  );
  await expect(page.getByTestId("result-row")).toContainText("0.40");
  await page.getByRole("link", { name: "show every cell" }).click();
  await expect(page.getByTestId("results-range")).toContainText("of 10");
});
