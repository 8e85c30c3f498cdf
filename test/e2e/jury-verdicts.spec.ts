import { expect, test } from "@playwright/test";
import type { FakeReply, FakeRequest } from "../support/fake-messages-api";
import { seedSuite } from "./results-seed";

// A jury of 3 that splits around a required criterion's gate, stored by the
// real CLI against the stand-in judge: the result page shows the criterion's
// combined verdict ("mean of 3 jurors: 0.77, 2 of 3 passed"), gates that
// agree with it and with the eval, and each juror's reasoning under that
// juror. Before, the criterion read "passed 0.77" beside "required: failed
// the gate" on an eval that passed, with one juror's reasoning under the mean.

const JURY_SUITE = `evals:
  - name: jury passes
    response: "The 2.3.0 release added per-tenant rate limits."
    judge: { jury: { size: 3, consensus: 0.66 } }
    rubric:
      threshold: 0.7
      criteria:
        - { name: accurate, description: "States the correct change (passes).", required: true }
  - name: jury fails
    response: "The 2.3.0 release added per-tenant rate limits."
    judge: { jury: { size: 3, consensus: 0.66 } }
    rubric:
      threshold: 0.7
      criteria:
        - { name: accurate, description: "States the correct change (fails).", required: true }
`;

/** The jurors' scores per eval, handed out in the order the calls arrive (which juror gets which does not matter). */
const SCORES: Record<string, number[]> = { passes: [0.9, 0.9, 0.5], fails: [1, 0.65, 0.65] };

function juryReply(): (request: FakeRequest) => FakeReply {
  const used: Record<string, number> = {};
  return (request) => {
    const which = /\(passes\)/.test(request.system) ? "passes" : "fails";
    const n = (used[which] = (used[which] ?? 0) + 1);
    const score = SCORES[which]![(n - 1) % 3]!;
    return { verdict: { reasoning: `Juror call ${n} gives a score of ${score.toFixed(2)}.`, score } };
  };
}

let seeded: Awaited<ReturnType<typeof seedSuite>>;
test.beforeAll(async () => {
  test.setTimeout(180_000);
  seeded = await seedSuite({ tag: "jury-verdicts", yaml: JURY_SUITE, respond: juryReply() });
});
test.afterAll(async () => {
  await seeded?.close();
});

const resultPage = (name: string) => `/runs/${seeded.runId}/results/${encodeURIComponent(name)}`;

test("a jury that passes 2 of 3: the criterion's headline, its gate and the eval agree; each juror's reasoning is under the juror", async ({ page }) => {
  await page.goto(resultPage("jury passes"));
  const criterion = page.getByTestId("criterion");
  await expect(criterion).toHaveCount(1);
  await expect(criterion.getByTestId("criterion-headline")).toContainText("mean of 3 jurors: 0.77, 2 of 3 passed");
  await expect(criterion.locator("[data-status]").first()).toHaveAttribute("data-status", "passed");
  await expect(criterion).toContainText("required: held");
  await expect(criterion).not.toContainText("failed the gate");
  await expect(criterion).not.toContainText("Gates:");
  // No one juror's reasoning stands under the combined score.
  await expect(criterion.getByTestId("criterion-reasoning")).toHaveCount(0);

  const verdicts = criterion.getByTestId("verdict");
  await expect(verdicts).toHaveCount(3);
  const passed: string[] = [];
  for (let i = 0; i < 3; i++) {
    const verdict = verdicts.nth(i);
    const reasoning = (await verdict.getByTestId("juror-reasoning").textContent()) ?? "";
    const score = /a score of (\d\.\d\d)/.exec(reasoning)?.[1];
    expect(score, reasoning).toBeDefined();
    // The juror's own score sits beside its own reasoning.
    await expect(verdict.locator("div").first()).toContainText(score!);
    const own = score === "0.50" ? "failed" : "passed";
    passed.push(own);
    await expect(verdict.locator("[data-status]")).toHaveAttribute("data-status", own);
    if (score === "0.50") await expect(verdict).toContainText("Gates: required criterion below its threshold");
  }
  expect(passed.sort()).toEqual(["failed", "passed", "passed"]);
  await expect(page.locator("p > [data-status]").first()).toHaveAttribute("data-status", "passed");
  await expect(page.getByTestId("result-reason")).toHaveText("jury: 2 of 3 jurors passed (consensus 0.66); mean score 0.77");
});

test("a jury that passes 1 of 3 with a mean above the threshold: the criterion failed its gate, and so did the eval", async ({ page }) => {
  await page.goto(resultPage("jury fails"));
  const criterion = page.getByTestId("criterion");
  await expect(criterion.getByTestId("criterion-headline")).toContainText("mean of 3 jurors: 0.77, 1 of 3 passed");
  await expect(criterion).toContainText("required: failed the gate");
  await expect(criterion.locator("[data-status]").first()).toHaveAttribute("data-status", "failed");
  await expect(page.locator("p > [data-status]").first()).toHaveAttribute("data-status", "failed");
  await expect(page.getByTestId("result-reason")).toHaveText('required criterion "accurate" failed: mean of 3 jurors: 0.77, 1 of 3 passed, threshold 0.70');
});

test("the runs list shows no markdown backticks", async ({ page }) => {
  await page.goto("/runs");
  await expect(page.locator("main")).toContainText("eval --store");
  expect(await page.locator("main").textContent()).not.toContain("`");
});
