import { expect, type Browser, type Page } from "@playwright/test";

// What the review specs share: the suite a stored run belongs to, and a
// browser of its own for one reviewer, named on the queue page.

/** The id of the suite a stored run belongs to, read off the run page's link to the suite's runs. */
export async function suiteOfRun(browser: Browser, runId: string): Promise<string> {
  const page = await browser.newPage();
  await page.goto(`/runs/${runId}`);
  const href = await page
    .locator('a[href^="/suites/"][href$="/runs"]')
    .first()
    .getAttribute("href");
  await page.close();
  return /\/suites\/([0-9a-f-]{36})\/runs/.exec(href ?? "")![1]!;
}

/** A new browser context on the suite's review queue, its reviewer named `name`. */
export async function reviewerPage(input: {
  browser: Browser;
  suiteId: string;
  name: string;
}): Promise<Page> {
  const context = await input.browser.newContext();
  const page = await context.newPage();
  await page.goto(`/suites/${input.suiteId}/review`);
  await page.getByTestId("reviewer-input").fill(input.name);
  await page.getByTestId("reviewer-save").click();
  await expect(page.getByTestId("reviewer-name").first()).toHaveText(input.name);
  return page;
}
