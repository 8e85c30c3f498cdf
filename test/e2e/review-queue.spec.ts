import { expect, test, type Browser, type Page } from "@playwright/test";
import type { FakeReply, FakeRequest } from "../support/fake-messages-api";
import { seedSuite } from "./results-seed";
import { reviewerPage, suiteOfRun } from "./review-pages";

// People in the loop, in a real browser, on a run stored by the real CLI
// against the stand-in judge: a jury of three splits on a criterion and a
// panel review is decided human_review; the run fills the suite's review
// queue with those items and why; "Ask a person" adds one by hand; a
// reviewer labels three items by keyboard alone, the judges' verdicts hidden
// until each answer; and two browsers cannot claim the same item. Asked about
// a review's decision, a person answers pass / conditional / fail and adds the
// label to the suite's dataset; a suite with review.second_opinion_rate hands
// a labelled item to a second, different person, and the agreement view then
// shows the two people's agreement.

const RESPONSE = "The 2.3.0 release added per-tenant rate limits.";
const ANCHOR = "2.3.0 added rate limits per tenant.";
const SUITE = `# Release checks: this comment survives "Add as anchor".
rubrics:
  prd:
    name: PRD review
    review_type: prd
    categories:
      - { id: problem, name: Problem, description: "States the problem.", required: true }
evals:
  - name: jury answer
    response: "${RESPONSE}"
    judge: { jury: { size: 3 } }
    rubric:
      criteria:
        - name: accurate
          description: "States the correct change."
          examples:
            - { response: "${ANCHOR}", score: 1.0 }
        - { name: concise, description: "Two sentences at most." }
  - name: prd panel
    document: "# Checkout v3\\nCarts are abandoned when checkout is slow.\\n"
    rubric: { ref: prd }
    judge: { panel: [claude-sonnet-4-6, claude-opus-4-1], aggregate: majority }
`;

function reply(): (request: FakeRequest) => FakeReply {
  let accurate = 0;
  return (request) => {
    const category = /\(id: (\w+)\) only/.exec(request.user)?.[1];
    if (category) {
      // Sonnet passes the problem statement, Opus fails it: the panel's decision is split.
      const score = String(request.body.model).includes("opus") ? "fail" : "pass";
      return {
        toolInput: {
          reasoning: `Panel judge says ${score}.`,
          score,
          evidence: ["Carts are abandoned"],
          findings: [],
        },
      };
    }
    if (request.user.includes('the criterion "accurate" only')) {
      const score = [0.9, 0.9, 0.2][accurate++ % 3]!;
      return {
        verdict: {
          reasoning: `Juror gives ${score.toFixed(2)}.`,
          score,
          evidence: "per-tenant rate limits",
        },
      };
    }
    return { verdict: { reasoning: "Short enough.", score: 0.9 } };
  };
}

let seeded: Awaited<ReturnType<typeof seedSuite>>;
let suiteId: string;
test.beforeAll(async ({ browser }) => {
  test.setTimeout(180_000);
  // A suite of its own each time (a retried worker seeds again), so the queue holds this run's items only.
  seeded = await seedSuite({ tag: `review-queue-${Date.now()}`, yaml: SUITE, respond: reply() });
  suiteId = await suiteOfRun(browser, seeded.runId);
});
test.afterAll(async () => {
  await seeded?.close();
});

const reviewer = (browser: Browser, name: string, suite = suiteId): Promise<Page> =>
  reviewerPage({ browser, suiteId: suite, name });

const row = (page: Page, criterion: string) =>
  page.locator(`[data-testid=review-item][data-criterion="${criterion}"]`);

test("a finished run fills the queue with the jury's split and the review's human_review decision, each saying why", async ({
  page,
}) => {
  await page.goto(`/suites/${suiteId}/review`);
  const items = page.getByTestId("review-item");
  await expect(items).toHaveCount(3);
  await expect(row(page, "accurate")).toHaveAttribute("data-reason", "judges_split");
  // Why, never what the judges said (who passed is their answer: it shows once the label is saved).
  await expect(row(page, "accurate").getByTestId("review-detail")).toHaveText(
    "the judges disagree: some pass it, some fail it (3 judges)",
  );
  await expect(row(page, "(decision)")).toHaveAttribute("data-reason", "human_review");
  await expect(row(page, "(decision)").getByTestId("review-detail")).toHaveText(
    "the judges left the review's decision to a person",
  );
  await expect(row(page, "Problem")).toHaveAttribute("data-reason", "judges_split");
  // "concise" was unanimous: nobody is asked about it.
  await expect(row(page, "concise")).toHaveCount(0);

  // Filter by reason, then by eval.
  await page.locator("[data-testid=reason-chip][data-reason=human_review]").click();
  await expect(items).toHaveCount(1);
  await expect(items.first()).toHaveAttribute("data-criterion", "(decision)");
  await page.goto(`/suites/${suiteId}/review`);
  await page.getByTestId("filter-eval").selectOption("jury answer");
  await page.getByTestId("filter-apply").click();
  await expect(items).toHaveCount(1);
  await expect(items.first()).toHaveAttribute("data-criterion", "accurate");
});

test("two browsers cannot claim the same item", async ({ browser }) => {
  const ana = await reviewer(browser, "Ana");
  const ben = await reviewer(browser, "Ben");
  await row(ana, "Problem").getByTestId("claim").click();
  await expect(ana).toHaveURL(new RegExp(`/suites/${suiteId}/review/[0-9a-f-]{36}`));
  await expect(ana.getByTestId("label-title")).toContainText("Problem");
  await row(ben, "Problem").getByTestId("claim").click();
  await expect(row(ben, "Problem").getByTestId("claim-error")).toHaveText(
    "Ana is labelling this item.",
  );
  // Opening the item's page directly does not get Ben past Ana's claim either.
  await ben.goto(ana.url());
  await expect(ben.getByTestId("claim-blocked")).toHaveText("Ana is labelling this item.");
  await expect(ben.getByTestId("label-submit")).toBeDisabled();
  // Ana gives it back, so the next test starts from an open queue.
  const itemId = /review\/([0-9a-f-]{36})/.exec(ana.url())![1]!;
  const released = await ana.request.delete(`/api/review/${itemId}/claim`, {
    data: { reviewer: "Ana" },
  });
  expect(await released.json()).toEqual({ released: true });
  await ana.context().close();
  await ben.context().close();
});

test("Ask a person queues a result's criterion by hand", async ({ browser }) => {
  const page = await reviewer(browser, "Ana");
  await page.goto(`/runs/${seeded.runId}/results/${encodeURIComponent("jury answer")}`);
  await page.getByTestId("ask-item").selectOption("concise");
  await page.getByTestId("ask-note").fill("Is two sentences the right bar?");
  // Asking is not labelling: the asker is named as such, and the item stays open for anyone.
  await expect(page.getByTestId("ask-person").getByTestId("reviewer")).toHaveText(/^Asking as Ana/);
  await page.getByTestId("ask-submit").click();
  await expect(page.getByTestId("ask-done")).toContainText("open for anyone to label");
  await page.goto(`/suites/${suiteId}/review`);
  await expect(page).toHaveTitle("Rubric Studio · Review queue");
  await expect(row(page, "concise")).toHaveAttribute("data-reason", "asked");
  await expect(row(page, "concise").getByTestId("review-state")).toHaveText("open");
  await expect(row(page, "concise").getByTestId("review-detail")).toHaveText(
    "asked by Ana: Is two sentences the right bar?",
  );
  await page.context().close();
});

test("a reviewer labels three items by keyboard, seeing the judges' verdicts only after answering", async ({
  browser,
}) => {
  const page = await reviewer(browser, "Ana");
  await row(page, "accurate").getByTestId("claim").click();
  await expect(page.getByTestId("label-title")).toContainText("jury answer: accurate");

  // The candidate, the criterion and its anchor; no verdict yet, nor the evidence the jurors cited.
  await expect(page.getByTestId("candidate")).toHaveText(RESPONSE);
  await expect(page.getByTestId("evidence-mark")).toHaveCount(0);
  await expect(page.getByTestId("label-asks")).toHaveText("States the correct change.");
  await expect(page.getByTestId("label-anchors")).toContainText(`${ANCHOR} → 1.00`);
  await expect(page.getByTestId("label-form")).toBeFocused();
  await expect(page.getByText("Juror gives")).toHaveCount(0);
  await expect(page.getByTestId("toggle-verdicts")).toHaveCount(0);

  // 1: unit scale, key 4 = 0.75; Enter saves.
  await page.keyboard.press("4");
  await expect(page.locator("[data-testid=label-point][data-value='0.75']")).toHaveAttribute(
    "aria-checked",
    "true",
  );
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("label-saved")).toContainText("Labelled 0.75 by Ana.");
  await expect(page.getByTestId("evidence-mark").first()).toHaveText("per-tenant rate limits");
  await page.getByTestId("toggle-verdicts").click();
  await expect(page.getByTestId("judge-verdict")).toHaveCount(3);
  await expect(page.getByTestId("judge-verdicts")).toContainText("Juror gives 0.20.");

  // "Add as anchor": the diff is that one examples: entry; saved, it is the suite's newest version, comments kept.
  await page.getByTestId("add-anchor-button").click();
  await expect(page.getByTestId("diff-summary")).toHaveText("+1 −0 lines");
  const addedRows = page.locator("[data-testid=version-diff] [data-kind=add]");
  await expect(addedRows).toHaveCount(1);
  await expect(addedRows).toContainText(`            - { response: "${RESPONSE}", score: 0.75 }`);
  await page.getByTestId("add-anchor-save").click();
  await expect(page.getByTestId("add-anchor-saved")).toBeVisible();
  const newest = await (await page.request.get(`/api/suites/${suiteId}/yaml`)).text();
  expect(newest.startsWith('# Release checks: this comment survives "Add as anchor".\n')).toBe(
    true,
  );
  expect(newest).toContain(
    `            - { response: "${ANCHOR}", score: 1.0 }\n            - { response: "${RESPONSE}", score: 0.75 }\n`,
  );

  // 2: J to the review's decision; pass / partial / fail, key 3 = pass.
  await page.getByTestId("label-form").focus();
  await page.keyboard.press("j");
  await expect(page.getByTestId("label-title")).toContainText("prd panel: (decision)");
  await expect(page.getByTestId("label-reason")).toHaveText("review needs a person");
  await expect(page.getByTestId("label-form")).toBeFocused();
  await page.keyboard.press("3");
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("label-saved")).toContainText("Labelled pass by Ana.");

  // 3: J to the split category; key 1 = fail, with a note typed and saved by Enter.
  await page.keyboard.press("j");
  await expect(page.getByTestId("label-title")).toContainText("prd panel: Problem");
  await expect(page.getByTestId("label-form")).toBeFocused();
  await page.keyboard.press("1");
  await page.getByTestId("label-note").fill("No numbers behind the claim.");
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("label-saved")).toContainText("Labelled fail by Ana.");

  // K, like J, goes to an item still waiting: past the labelled ones before this, round to the one asked by hand.
  await page.getByTestId("label-form").focus();
  await page.keyboard.press("k");
  await expect(page.getByTestId("label-title")).toContainText("jury answer: concise");
  await expect(page.getByTestId("label-saved")).toHaveCount(0);

  // Only the item asked about by hand is left waiting.
  await page.goto(`/suites/${suiteId}/review`);
  await expect(page.getByTestId("review-item")).toHaveCount(1);
  await expect(page.getByTestId("review-item")).toHaveAttribute("data-criterion", "concise");

  // The calibration view reads the judges against these labels: the jury's mean 0.67 against 0.75.
  await page.goto(`/suites/${suiteId}/calibration`);
  const people = page.getByTestId("people-calibration");
  await expect(
    people.locator(
      "[data-testid=calibration-criterion][data-criterion=accurate] [data-testid=calibration-mae]",
    ),
  ).toHaveText("MAE 0.083");
  await expect(
    people.locator("[data-testid=calibration-criterion][data-criterion=Problem]"),
  ).toContainText("Ana");
  // And the run's agreement view shows people beside the judges.
  await page.goto(`/runs/${seeded.runId}/agreement`);
  await expect(
    page.locator("[data-testid=people-agreement-row][data-item=accurate]"),
  ).toContainText("jury answer");
  await expect(page.locator("[data-testid=people-agreement-row][data-item=Problem]")).toBeVisible();
  await page.context().close();
});

test("Ask a person on a review's decision: answered pass / conditional / fail, then added to the suite's dataset", async ({
  browser,
}) => {
  const page = await reviewer(browser, "Ana");
  await page.goto(`/runs/${seeded.runId}/results/${encodeURIComponent("prd panel")}`);
  await expect(page.getByTestId("ask-item").locator("option")).toHaveText([
    "the review's decision",
    "Problem",
  ]);
  await page.getByTestId("ask-item").selectOption("(decision)");
  await page.getByTestId("ask-submit").click();
  // The claim answers late (a loaded server): a digit and Enter pressed before it are saved once it is held, not dropped.
  await page.route("**/api/review/*/claim", async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await route.continue();
  });
  await page.getByTestId("ask-done").getByRole("link", { name: "Label it now" }).click();
  await expect(page.getByTestId("label-title")).toContainText("prd panel: (decision)");
  await expect(page.getByTestId("label-reason")).toHaveText("asked by a person");
  await expect(page.getByTestId("label-point")).toHaveText([/fail/, /conditional/, /pass/]);
  await page.getByTestId("label-form").focus();
  await page.keyboard.press("2");
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("label-saved")).toContainText("Labelled conditional by Ana.");
  // A decision is not a criterion's score: no anchor, but a dataset item.
  await expect(page.getByTestId("add-anchor")).toHaveCount(0);
  await page.getByTestId("add-to-dataset-button").click();
  await expect(page.getByTestId("add-to-dataset-done")).toContainText(
    "Added to the suite's dataset (1 item).",
  );
  const download = await page.request.get(`/api/suites/${suiteId}/dataset`);
  expect(download.headers()["content-disposition"]).toMatch(
    /^attachment; filename=".+-labels\.json"$/,
  );
  const dataset = (await download.json()) as {
    items: { expected_output: string; annotations: unknown[] }[];
  };
  expect(dataset.items).toHaveLength(1);
  expect(dataset.items[0]!.expected_output).toContain("Carts are abandoned");
  expect(dataset.items[0]!.annotations).toEqual([
    {
      name: "decision",
      score: 0.5,
      label: "conditional",
      annotator_id: "Ana",
      annotator_type: "human",
    },
  ]);
  await page.context().close();
});

test("a second opinion: the item Ana labelled goes to Ben, not back to Ana, and the agreement view shows the two people's agreement", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const second = await seedSuite({
    tag: `second-opinion-${Date.now()}`,
    yaml: SUITE.replace("rubrics:", "review: { second_opinion_rate: 1 }\nrubrics:"),
    respond: reply(),
  });
  try {
    const secondSuite = await suiteOfRun(browser, second.runId);

    const ana = await reviewer(browser, "Ana", secondSuite);
    await expect(row(ana, "accurate").getByTestId("review-state")).toHaveText(
      "open · second opinion (0 of 2 labels)",
    );
    await row(ana, "accurate").getByTestId("claim").click();
    await expect(ana.getByTestId("label-title")).toContainText("jury answer: accurate");
    await expect(ana.getByTestId("label-form")).toBeFocused();
    await ana.keyboard.press("4");
    await expect(ana.getByTestId("label-submit")).toBeEnabled();
    await ana.keyboard.press("Enter");
    await expect(ana.getByTestId("label-saved")).toContainText("Labelled 0.75 by Ana.");
    // Ana's queue no longer offers it; opened directly, it says why.
    await ana.goto(`/suites/${secondSuite}/review`);
    await expect(row(ana, "(decision)")).toHaveCount(1);
    await expect(row(ana, "accurate")).toHaveCount(0);
    // Nor does J: walking the queue with it from another item never lands on the one she labelled (open for a second person).
    await row(ana, "(decision)").getByTestId("claim").click();
    await expect(ana.getByTestId("label-title")).toContainText("(decision)");
    const visited: string[] = [];
    for (let step = 0; step < 4; step++) {
      // The page's script runs once its form has the focus: a key pressed before would do nothing.
      await expect(ana.getByTestId("label-form")).toBeFocused();
      visited.push((await ana.getByTestId("label-title").textContent()) ?? "");
      const here = ana.url();
      await ana.keyboard.press("j");
      const moved = await ana
        .waitForURL((url) => url.toString() !== here, { timeout: 5000 })
        .then(
          () => true,
          () => false,
        );
      if (!moved) break;
    }
    expect(visited.length).toBeGreaterThan(1);
    expect(visited.filter((title) => title.includes("accurate"))).toEqual([]);

    const ben = await reviewer(browser, "Ben", secondSuite);
    await expect(row(ben, "accurate").getByTestId("review-state")).toHaveText(
      "open · second opinion (1 of 2 labels)",
    );
    await row(ben, "accurate").getByTestId("claim").click();
    await expect(ben.getByTestId("label-title")).toContainText("jury answer: accurate");
    // Ben answers unanchored: neither Ana's label nor the judges' verdicts are shown.
    await expect(ben.getByTestId("label-saved")).toHaveCount(0);
    await expect(ben.getByTestId("toggle-verdicts")).toHaveCount(0);
    await ana.goto(ben.url());
    await expect(ana.getByTestId("claim-blocked")).toHaveText(
      "You labelled this item already: its second opinion is another person's.",
    );
    await ben.getByTestId("label-form").focus();
    await ben.keyboard.press("2");
    await expect(ben.getByTestId("label-submit")).toBeEnabled();
    await ben.keyboard.press("Enter");
    await expect(ben.getByTestId("label-saved")).toContainText("Labelled 0.25 by Ben.");

    // 0.75 against 0.25 on one item: exact 0; interval alpha = 1 - (2 - 1) * 0.5 / 0.5 = 0.
    await ben.goto(`/runs/${second.runId}/agreement`);
    const people = ben.locator("[data-testid=people-people-row][data-item=accurate]");
    await expect(people.getByTestId("people-people-units")).toHaveText("1");
    await expect(people.getByTestId("people-people-exact")).toHaveText("0.00");
    await expect(people.getByTestId("people-people-alpha")).toHaveText("0.000");
    await expect(
      ben.locator("[data-testid=people-agreement-row][data-item=accurate]"),
    ).toBeVisible();
    await ana.context().close();
    await ben.context().close();
  } finally {
    await second.close();
  }
});
