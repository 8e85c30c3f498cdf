import { expect, test, type Browser, type Page } from "@playwright/test";
import type { FakeReply, FakeRequest } from "../support/fake-messages-api";
import { seedSuite } from "./results-seed";
import { reviewerPage, suiteOfRun } from "./review-pages";

// A person labels unanchored: a jury of three that splits (0.10, 0.10, 0.95)
// and a pair whose judge always prefers the output shown first (its choice
// changes with the order) fill the review queue, twice (two runs, two suite
// versions). Before the label is saved, nothing of the judges' answer reaches
// the browser: not the queue's rows, not the labelling page's text nor its
// HTML (the React payload included), not a link to a page that shows it.
// The queue says why each item is there, from which run and version; J and K
// walk the queue without claiming what they pass.

const RESPONSE = "The 2.3.0 release added per-tenant rate limits.";
const SUITE = `evals:
  - name: jury answer
    response: "${RESPONSE}"
    judge: { jury: { size: 3 } }
    rubric:
      criteria:
        - { name: accurate, description: "States the correct change." }
  - name: notes v1 vs v2
    rubric: "Which release note is more accurate?"
    compare:
      labels: { a: v1, b: v2 }
      items:
        - { id: n23, input: "Write the 2.3 note.", output_a: "2.3 adds rate limits.", output_b: "2.3 adds per-tenant rate limits (100 rps)." }
`;

/** What the judges said, in any form a page could show it: none may appear before the label. */
const JUDGES_SAID = [
  "Juror says",
  "0.95",
  "judges passed",
  "scores spread",
  "chose",
  "A first",
  "B first",
  "reads better",
];

function reply(): (request: FakeRequest) => FakeReply {
  let juror = 0;
  return (request) => {
    if (request.user.includes("<response_a>"))
      return {
        toolInput: { reasoning: "The first one reads better.", winner: "A", confidence: 0.9 },
      };
    const score = [0.1, 0.1, 0.95][juror++ % 3]!;
    return { verdict: { reasoning: `Juror says ${score.toFixed(2)}.`, score } };
  };
}

let suiteId: string | undefined;
const cleanups: (() => Promise<void>)[] = [];
test.beforeAll(async ({ browser }) => {
  test.setTimeout(240_000);
  const tag = `unanchored-${Date.now()}`;
  // Two runs of one suite file, the second after an edit: two versions, the same questions twice.
  for (const yaml of [SUITE, `# v2\n${SUITE}`]) {
    const seeded = await seedSuite({ tag, yaml, respond: reply() });
    cleanups.push(seeded.close);
    suiteId ??= await suiteOfRun(browser, seeded.runId);
  }
});
test.afterAll(async () => {
  for (const close of cleanups) await close();
});

const reviewer = (browser: Browser, name: string) =>
  reviewerPage({ browser, suiteId: suiteId!, name });

/** The page as the browser has it and as the server sends it (HTML and the React payload). */
async function everythingSent(page: Page): Promise<string> {
  const served = await (await page.request.get(page.url())).text();
  return `${await page.content()}\n${served}`;
}

function expectNothingOfTheJudges(text: string) {
  for (const said of JUDGES_SAID)
    expect(text, `"${said}" shown before the label`).not.toContain(said);
}

const items = (page: Page) => page.getByTestId("review-item");

/** J or K on a labelling page whose script runs (its form has the focus): the page it leads to. */
async function step(page: Page, key: "j" | "k"): Promise<string> {
  await expect(page.getByTestId("label-form")).toBeFocused();
  const from = page.url();
  await page.keyboard.press(key);
  await expect(page).not.toHaveURL(from);
  await expect(page.getByTestId("label-form")).toBeFocused();
  return page.url();
}
const title = (page: Page) => page.getByTestId("label-title");

test("the queue says why each item is there and from which run and version, never what the judges said", async ({
  page,
}) => {
  await page.goto(`/suites/${suiteId}/review`);
  await expect(items(page)).toHaveCount(4);
  const jury = page.locator("[data-testid=review-item][data-reason=judges_split]");
  const pair = page.locator("[data-testid=review-item][data-reason=position_biased]");
  await expect(jury).toHaveCount(2);
  await expect(pair).toHaveCount(2);
  await expect(jury.first().getByTestId("review-detail")).toHaveText(/the judges disagree/);
  await expect(pair.first().getByTestId("review-detail")).toHaveText(/changed with the order/);
  // Two runs' rows tell apart: each names its run and the suite version it graded.
  await expect(jury.nth(0).getByTestId("review-run")).toContainText("v1");
  await expect(jury.nth(1).getByTestId("review-run")).toContainText("v2");
  expect(await jury.nth(0).getByTestId("review-run").textContent()).not.toEqual(
    await jury.nth(1).getByTestId("review-run").textContent(),
  );
  // No way from the queue to a page that shows the verdicts before the label.
  await expect(page.locator("[data-testid=review-queue] a[href*='/results/']")).toHaveCount(0);
  await expect(page.locator("[data-testid=review-queue] a[href$='/calibration']")).toHaveCount(0);
  expectNothingOfTheJudges(await everythingSent(page));
});

test("J and K walk the queue without claiming; the first key that labels claims; K skips labelled items as J does", async ({
  browser,
}) => {
  const ana = await reviewer(browser, "Ana");
  const ben = await reviewer(browser, "Ben");
  const first = await items(ana).first().getAttribute("data-item-id");
  await ana.goto(`/suites/${suiteId}/review/${first}`);
  await expect(title(ana)).toContainText("jury answer: accurate");
  // Browse: J, J, J, K. Nothing is claimed by passing through.
  const second = await step(ana, "j");
  await expect(title(ana)).toContainText("notes v1 vs v2: n23");
  const third = await step(ana, "j");
  await expect(title(ana)).toContainText("jury answer: accurate");
  const fourth = await step(ana, "j");
  await expect(title(ana)).toContainText("notes v1 vs v2: n23");
  expect(await step(ana, "k")).toBe(third);
  await ben.reload();
  await expect(ben.getByTestId("review-state")).toHaveText(["open", "open", "open", "open"]);

  // A digit labels: it claims the item (Ben's queue says so), Enter saves.
  await ana.keyboard.press("2");
  await expect(ana.locator("[data-testid=label-point][data-value='0.25']")).toHaveAttribute(
    "aria-checked",
    "true",
  );
  await ben.reload();
  await expect(ben.getByTestId("review-state").nth(2)).toHaveText("claimed by Ana");
  await ana.keyboard.press("Enter");
  await expect(ana.getByTestId("label-saved")).toContainText("Labelled 0.25 by Ana.");

  // From the fourth item, K goes back past the labelled third to the second, as J skips labelled items.
  expect(await step(ana, "j")).toBe(fourth);
  expect(await step(ana, "k")).toBe(second);
  await ana.context().close();
  await ben.context().close();
});

test("the labelling page shows nothing of the judges' answer before the label is saved, and their verdicts after", async ({
  browser,
}) => {
  const page = await reviewer(browser, "Cleo");
  // The jury's split criterion (the first run's).
  await page
    .locator("[data-testid=review-item][data-reason=judges_split]")
    .first()
    .getByTestId("claim")
    .click();
  await expect(title(page)).toContainText("jury answer: accurate");
  await expect(page.getByTestId("label-reason")).toHaveText("judges split");
  await expect(page.getByTestId("candidate")).toHaveText(RESPONSE);
  await expect(page.getByTestId("label-form")).toBeFocused();
  expectNothingOfTheJudges(await everythingSent(page));
  await expect(page.locator("a[href*='/results/']")).toHaveCount(0);
  await page.keyboard.press("5");
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("label-saved")).toContainText("Labelled 1.00 by Cleo.");
  await page.getByTestId("toggle-verdicts").click();
  await expect(page.getByTestId("judge-verdict")).toHaveCount(3);
  await expect(page.getByTestId("judge-verdicts")).toContainText("Juror says 0.95.");
  await expect(page.getByTestId("label-result-link")).toBeVisible();

  // The position-biased pair: which output the judge chose in each order stays hidden too.
  await page.goto(`/suites/${suiteId}/review`);
  await page
    .locator("[data-testid=review-item][data-reason=position_biased]")
    .first()
    .getByTestId("claim")
    .click();
  await expect(title(page)).toContainText("notes v1 vs v2: n23");
  await expect(page.getByTestId("label-reason")).toHaveText("position-biased pair");
  await expect(page.getByTestId("label-form")).toBeFocused();
  expectNothingOfTheJudges(await everythingSent(page));
  await page.keyboard.press("2");
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("label-saved")).toContainText("by Cleo.");
  await page.getByTestId("toggle-verdicts").click();
  await expect(page.getByTestId("judge-verdicts")).toContainText("A first: A, B first: B");
  await expect(page.getByTestId("judge-verdicts")).toContainText("The first one reads better.");
  await page.context().close();
});
