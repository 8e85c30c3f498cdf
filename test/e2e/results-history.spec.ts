import { expect, test } from "@playwright/test";
import { seedBigRun, seedLaterRun } from "../../bench/seed-big-run";
import type { Report } from "../../lib/engine/results/report";
import { compareToBaseline, gradedChangeOf } from "../../lib/engine/trust/compare-baseline";
import { createPrismaClient } from "../../lib/store/connection";
import { findEmbeddedServer } from "../../lib/store/embedded-postgres";
import { createRunStore } from "../../lib/store/run-store";
import { KEYLESS_PROVIDERS, REGRESSING, seedRuns, seedSuite, type Seeded } from "./results-seed";

// A suite's history: its runs over time, a score trend per eval with a point
// per run, and two runs compared (newly failing results named).

let seeded: Seeded;
test.beforeAll(async () => {
  seeded = await seedRuns({ tag: "history", rounds: 2 });
});
test.afterAll(async () => seeded?.close());

test("the suite's runs, their trend charts and their comparison", async ({ page }) => {
  await page.goto("/runs");
  await page
    .locator(`[data-run-id="${seeded.runIds[1]}"]`)
    .getByRole("link", { name: seeded.suiteName })
    .click();
  await expect(page.getByRole("heading", { name: `History of ${seeded.suiteName}` })).toBeVisible();
  const rows = page.getByTestId("run-row");
  await expect(rows).toHaveCount(2);
  // Newest first.
  await expect(rows.first()).toHaveAttribute("data-run-id", seeded.runIds[1]!);

  // The default comparison is the newest run against the one before it.
  const comparison = page.getByTestId("run-comparison");
  await expect(page.getByTestId("newly-failing")).toHaveText(`${REGRESSING} newly failing`);
  await expect(page.getByTestId("newly-passing")).toHaveText("0 newly passing");
  await expect(comparison.getByTestId("comparison-row").first()).toContainText("newly failing");
  await expect(comparison).toContainText("−0.70");

  // A trend per eval, drawn in the browser with one point per run.
  const chart = page.getByTestId("score-trend").filter({ hasText: "filler 01" });
  await expect(chart.locator(".recharts-line-dot, .recharts-dot")).toHaveCount(2);
  // The chart takes its figure's width (it was a fixed 640 px in a 1,150 px box).
  const [plotWidth, figureWidth] = await Promise.all([
    chart.getByTestId("score-trend-plot").evaluate((el) => el.getBoundingClientRect().width),
    chart.evaluate((el) => el.clientWidth),
  ]);
  expect(plotWidth).toBeGreaterThan(figureWidth * 0.8);
});

// Issue 12, items 6 and 17: a suite saved twice (two versions), each run with
// a failing eval and a pairwise comparison whose judge favours the first slot
// on one pair of two.
function versionedYaml(version: number): string {
  return [
    "evals:",
    "  - name: good answer",
    '    response: "Refunds within 30 days."',
    `    rubric: "States the refund window (v${version})."`,
    "  - name: bad answer",
    '    response: "Ask support."',
    '    rubric: "States the refund window."',
    "  - name: notes compared",
    '    rubric: "Which release note is more useful?"',
    "    compare:",
    "      labels: { a: v1, b: v2 }",
    "      items:",
    '        - { input: "Write the 2.3 note.", output_a: "2.3 adds limits.", output_b: "2.3 adds per-tenant limits." }',
    '        - { input: "Write the 2.4 note.", output_a: "2.4 fixes bugs.", output_b: "2.4 fixes the rounding bug (#812)." }',
    "",
  ].join("\n");
}

const respond = (r: { user: string }) => {
  const first = /<response_a>\n(.*)\n/.exec(r.user)?.[1];
  // Pair 1: always the first slot (position-biased); pair 2: always v2's output, in either order.
  if (first !== undefined)
    return {
      toolInput: {
        reasoning: "Compared.",
        winner: first.startsWith("2.3") ? "A" : first.includes("#812") ? "A" : "B",
        confidence: 0.9,
      },
    };
  return { verdict: { reasoning: "Checked.", score: r.user.includes("Ask support.") ? 0.2 : 0.9 } };
};

test("runs show their suite version, pass rate and cost; a run with failures is not a green completed; compare links the diff; position bias per run", async ({
  page,
}) => {
  const first = await seedSuite({ tag: "versioned-history", yaml: versionedYaml(1), respond });
  const second = await seedSuite({ tag: "versioned-history", yaml: versionedYaml(2), respond });
  try {
    await page.goto("/runs");
    const row = page.locator(`[data-testid=run-row][data-run-id="${second.runId}"]`);
    await expect(row.getByTestId("run-version")).toHaveText("v2");
    // 2 of 3 graded results passed (the comparison and the good answer).
    await expect(row.getByTestId("run-pass-rate")).toHaveText("67%");
    await expect(row.getByTestId("run-row-cost")).not.toHaveText("unknown");
    const badge = row.locator("[data-tone]");
    await expect(badge).toHaveText("completed · 1 failed");
    await expect(badge).toHaveAttribute("data-tone", "danger");

    // The suites list says the same of the suite's last run.
    await page.goto("/suites");
    await expect(
      page.getByTestId("suite-row").filter({ hasText: second.suiteName }).getByTestId("last-run"),
    ).toHaveText("completed · 1 failed");

    await page.goto("/runs");
    await row.getByRole("link", { name: second.suiteName }).click();
    await expect(page.getByTestId("compared-versions")).toContainText("v1 → v2");
    // Position bias across the suite's runs: one of the two pairs, in each run.
    const bias = page.getByTestId("position-bias-row");
    await expect(bias).toHaveCount(2);
    await expect(bias.first()).toContainText("50%");
    await expect(bias.first()).toContainText("1 of 2 pairs");

    await page.getByTestId("version-diff-link").click();
    await expect(page.getByTestId("diff-title")).toHaveText(`${second.suiteName}: v1 → v2`);
    const diff = page.getByTestId("version-diff");
    await expect(diff.locator("[data-kind=del]")).toContainText("(v1)");
    await expect(diff.locator("[data-kind=add]")).toContainText("(v2)");
    // Readable at full width: the diff spans most of the window, and no line is scrolled out of sight.
    const [diffWidth, windowWidth] = await Promise.all([
      diff.evaluate((el) => el.getBoundingClientRect().width),
      page.evaluate(() => window.innerWidth),
    ]);
    expect(diffWidth).toBeGreaterThan(windowWidth * 0.8);
    expect(await diff.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);

    // The run page pools the run's comparisons.
    await page.goto(`/runs/${second.runId}`);
    await expect(page.getByTestId("run-position-bias")).toContainText("50%");
    await expect(page.getByTestId("result-score-cell").filter({ hasText: "winner" })).toHaveCount(
      1,
    );
  } finally {
    await first.close();
    await second.close();
  }
});

// Issue 20: two runs of 2,000 results compared on the server. The counts are the --baseline gate's
// (the engine's over both runs, read here whole), the table lists the first 200 rows, the changed
// ones first, and says how many more there are.
test("two runs of 2,000 results: the gate's counts, the worst 200 rows and how many more", async ({
  page,
}) => {
  test.setTimeout(300_000);
  const url = await findEmbeddedServer(process.env.E2E_DATA_DIR!);
  if (!url) throw new Error("the e2e server's embedded database is not running");
  const base = await seedBigRun({
    url,
    results: 2_000,
    criteria: 1,
    suiteName: `history-big-${Date.now()}.yaml`,
  });
  const headRunId = await seedLaterRun(url, base.runId);
  const prisma = createPrismaClient(url, { max: 1 });
  const store = createRunStore(prisma);
  const gate = compareToBaseline({
    report: { results: await store.results(headRunId) } as Report,
    baseline: await store.results(base.runId),
    baselineRunId: base.runId,
    maxDrop: 0.05,
  });
  await prisma.$disconnect();
  const nowGraded = gate.deltas.filter((d) => gradedChangeOf(d) === "now_graded").length;
  const noLongerGraded = gate.deltas.filter((d) => gradedChangeOf(d) === "no_longer_graded").length;
  expect(gate.newlyFailing).toBeGreaterThan(0);
  expect(noLongerGraded).toBeGreaterThan(0);

  await page.goto(`/suites/${base.suiteId}/runs`);
  const comparison = page.getByTestId("run-comparison");
  await expect(page.getByTestId("newly-failing")).toHaveText(`${gate.newlyFailing} newly failing`);
  await expect(page.getByTestId("newly-passing")).toHaveText(`${gate.newlyPassing} newly passing`);
  await expect(comparison).toContainText(`${gate.regressions} regressed`);
  if (nowGraded) await expect(page.getByTestId("now-graded")).toHaveText(`${nowGraded} now graded`);
  await expect(page.getByTestId("no-longer-graded")).toHaveText(
    `${noLongerGraded} no longer graded`,
  );
  await expect(comparison.getByTestId("comparison-row")).toHaveCount(200);
  await expect(comparison.getByTestId("comparison-row").first()).toContainText("newly failing");
  await expect(page.getByTestId("comparison-more")).toContainText(
    "… 1,800 more not shown (of 2,000 results compared",
  );
});

// A walk's finding: an eval whose every result deferred (its judge's provider has no key here)
// drew an empty plot under its title, as if the chart had failed. It says why instead.
test("an eval graded in none of its runs says so where its trend would be", async ({ page }) => {
  const keyless = await seedSuite({
    tag: "history-ungraded",
    yaml: `${KEYLESS_PROVIDERS}evals:
  - name: graded eval
    response: "Four."
    rubric: "Gives the right number."
  - name: keyless eval
    response: "Four."
    rubric: "Gives the right number."
    matrix:
      models: ["nokey:small"]
`,
    respond: () => ({ verdict: { reasoning: "Right.", score: 0.9 } }),
  });
  try {
    await page.goto("/runs");
    await page
      .locator(`[data-run-id="${keyless.runId}"]`)
      .getByRole("link", { name: keyless.suiteName })
      .click();
    const ungraded = page.getByTestId("score-trend").filter({ hasText: "keyless eval" });
    await expect(ungraded.getByTestId("score-trend-ungraded")).toHaveText(
      "Nothing graded in this run: every result of this eval deferred or was skipped.",
    );
    await expect(ungraded.locator(".recharts-wrapper")).toHaveCount(0);
    const graded = page.getByTestId("score-trend").filter({ hasText: "graded eval" }).first();
    await expect(graded.locator(".recharts-line-dot, .recharts-dot")).toHaveCount(1);
  } finally {
    await keyless.close();
  }
});
