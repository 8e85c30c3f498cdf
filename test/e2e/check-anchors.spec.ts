import { readFileSync } from "node:fs";
import { expect, test, type Page } from "@playwright/test";
import { ANCHOR_SUITE, HOSTILE_REASONING } from "./calibration-fixtures";

// Issue 5 §1, "Check anchors", and the calibration view's "Run calibration":
// on the dashboard that has a judge key (playwright.config.ts points it at the
// stand-in of anchor-judge-main.ts), the draft's anchors are graded on the
// server and the verdicts appear beside each anchor in the editor; without
// the judge model's key each anchor says so.

const KEYED = process.env.E2E_KEYED_URL!;

async function openSuite(page: Page, base: string, name: string, yaml: string): Promise<string> {
  const created = await page.request.post(`${base}/api/suites`, { data: { name, yaml } });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  await page.goto(`${base}/suites/${id}`);
  await expect
    .poll(() => page.evaluate(() => globalThis.__rubricStudioEditor?.getValue() ?? null))
    .toBe(yaml);
  return id;
}

test("Check anchors grades the criterion under the cursor, then all, and marks the anchor that is off", async ({
  page,
}) => {
  await openSuite(page, KEYED, "anchors check", ANCHOR_SUITE);
  await page.evaluate(() => globalThis.__rubricStudioEditor!.setCursorLine(11));
  const panel = page.getByTestId("anchors-panel");
  await panel.getByRole("button", { name: "Check anchors" }).click();

  // Only "cites the policy": its two anchors, the second off (labelled 0, judged 0.7).
  const results = panel.getByTestId("anchor-result");
  await expect(results).toHaveCount(2);
  await expect(panel.getByTestId("anchors-summary")).toContainText(
    "2 anchors of “cites the policy”: 1 off by more than ±0.25.",
  );
  await expect(results.nth(0)).toHaveAttribute("data-outlier", "false");
  await expect(results.nth(0)).toContainText("line 10: cites the policy");
  await expect(results.nth(0)).toContainText("labelled 1.00 · judged 0.90");
  await expect(results.nth(1)).toHaveAttribute("data-outlier", "true");
  await expect(results.nth(1)).toContainText("labelled 0.00 · judged 0.70");
  // The judge's reasoning is text, never markup.
  await expect(results.nth(1)).toContainText(HOSTILE_REASONING);
  await expect(page.locator("img[src=x]")).toHaveCount(0);

  // In the editor: the judged score after each anchor's line, and a squiggle on the one that is off.
  const editor = page.getByTestId("editor");
  await expect(editor.locator(".anchor-inline")).toHaveText(["labelled 1.00 · judged 0.90"]);
  await expect(editor.locator(".anchor-inline-off")).toHaveText([
    "labelled 0.00 · judged 0.70 · off",
  ]);
  const markers = await page.evaluate(() =>
    globalThis.__rubricStudioEditor!.getMarkers("rubric-studio-anchors"),
  );
  expect(
    markers.map((m) => [
      m.startLineNumber,
      m.message.startsWith("Anchor off: labelled 0.00, judged 0.70 (+0.70)."),
    ]),
  ).toEqual([[11, true]]);
  expect(markers[0]!.message).toContain(HOSTILE_REASONING);

  // Every criterion: four anchors; "Whatever." (labelled 0, judged 0.4) is off too.
  await panel.getByRole("button", { name: "All criteria" }).click();
  await expect(results).toHaveCount(4);
  await expect(panel.getByTestId("anchors-summary")).toContainText(
    "4 anchors of 2 criteria: 2 off by more than ±0.25.",
  );
  await expect(editor.locator(".anchor-inline-off")).toHaveCount(2);

  // An edit makes the verdicts stale: gone from the editor, kept in the panel as for an earlier draft.
  await page.evaluate(() =>
    globalThis.__rubricStudioEditor!.setValue(
      `${globalThis.__rubricStudioEditor!.getValue()}# edited\n`,
    ),
  );
  await expect(editor.locator(".anchor-inline, .anchor-inline-off")).toHaveCount(0);
  expect(
    await page.evaluate(() => globalThis.__rubricStudioEditor!.getMarkers("rubric-studio-anchors")),
  ).toEqual([]);
  await expect(panel.getByTestId("anchors-summary")).toContainText("(checked an earlier draft)");
});

test("Run calibration on the server fills the calibration view", async ({ page }) => {
  const id = await openSuite(page, KEYED, "anchors calibration", ANCHOR_SUITE);
  await page.goto(`${KEYED}/suites/${id}/calibration`);
  // The hint names the file the download saves as (with .yaml) and files the calibration under this suite with --suite.
  await expect(page.getByTestId("calibration-command")).toHaveText(
    "npx rubric-studio calibrate --config 'anchors calibration.yaml' --store --suite 'anchors calibration'",
  );
  await expect(page.getByTestId("calibration-file")).toHaveText("anchors calibration.yaml");
  const download = await page.request.get(
    `${KEYED}${await page.getByTestId("calibration-download").getAttribute("href")}`,
  );
  expect(await download.text()).toBe(ANCHOR_SUITE);
  await page.getByRole("button", { name: "Run calibration" }).click();
  await expect(page.getByTestId("calibration-criterion")).toHaveCount(2, { timeout: 30_000 });
  const policy = page.locator(
    '[data-testid=calibration-criterion][data-criterion="cites the policy"]',
  );
  await expect(policy.getByTestId("calibration-mae")).toHaveText("MAE 0.400");
  await expect(
    policy.locator("[data-testid=calibration-items] tr[data-outlier=true] td").nth(1),
  ).toHaveText("Ask support maybe.");
});

test("on a server whose providers lack the judge model's key, each anchor says why it was not judged", async ({
  page,
}) => {
  // The main dashboard has no ANTHROPIC_API_KEY, but a provider it defines has its key: checking is on, and a Claude judge defers anchor by anchor.
  await openSuite(page, "", "anchors without key", ANCHOR_SUITE);
  const panel = page.getByTestId("anchors-panel");
  await expect(page.getByTestId("anchors-unavailable")).toHaveCount(0);
  await panel.getByRole("button", { name: "All criteria" }).click();
  const results = panel.getByTestId("anchor-result");
  await expect(results).toHaveCount(4);
  // The reason they share is said once, in the count; none is counted within its label.
  await expect(panel.getByTestId("anchors-summary")).toContainText(
    "none checked: no judge key: set ANTHROPIC_API_KEY to grade for real",
  );
  await expect(panel.getByTestId("anchors-summary")).not.toContainText("within");
  for (const i of [0, 1, 2, 3]) {
    await expect(results.nth(i)).toContainText("not checked");
    await expect(results.nth(i)).toHaveAttribute("class", "anchor-unchecked");
  }
});

// Issue 12 §16, checking as you type. The stand-in judge counts the requests
// it answered (E2E_JUDGE_CALLS), so each step can say whether the judge worked.
const judgeCalls = () => Number(readFileSync(process.env.E2E_JUDGE_CALLS!, "utf8") || "0");
/** After the stand-in's count has had time to catch up (it is written every 50 ms). */
const settledCalls = async (page: Page) => {
  await page.waitForTimeout(300);
  return judgeCalls();
};
const edit = (page: Page, text: string) =>
  page.evaluate((t) => globalThis.__rubricStudioEditor!.setValue(t), text);
/** The fixture with the "Ask support maybe." anchor (line 11) replaced: an edit inside "cites the policy". */
const withAnchor = (response: string) => ANCHOR_SUITE.replace("Ask support maybe.", response);

test("as you type: an edited anchor is graded without a click, text checked before comes from the judge cache, and the switch stops it", async ({
  page,
}) => {
  const tag = Date.now().toString(36);
  await openSuite(page, KEYED, `as you type ${tag}`, ANCHOR_SUITE);
  const panel = page.getByTestId("anchors-panel");
  const results = panel.getByTestId("anchor-result");
  await expect(panel.getByTestId("anchors-spend")).toHaveText("$0 of $0.1000 used");
  const start = await settledCalls(page);

  // An edit to an anchor: once it settles, its criterion's two anchors are graded (the stand-in says 0.5 to a text it does not know).
  await edit(page, withAnchor(`Ask support, ${tag}.`));
  await expect(results).toHaveCount(2, { timeout: 15_000 });
  await expect(panel.getByTestId("anchors-summary")).toContainText(
    "2 anchors of “cites the policy”",
  );
  await expect(results.nth(1)).toContainText("labelled 0.00 · judged 0.50");
  await expect(panel.getByTestId("anchors-source")).toContainText("Checked as you typed");
  await expect(page.getByTestId("editor").locator(".anchor-inline-off")).toHaveText([
    "labelled 0.00 · judged 0.50 · off",
  ]);
  expect(await settledCalls(page)).toBe(start + 2);
  await expect(panel.getByTestId("anchors-spend")).toHaveText(/^\$0\.0\d{3} of \$0\.1000 used$/);
  await expect(panel.getByTestId("anchors-spend")).not.toHaveText("$0 of $0.1000 used");

  // Another text: both anchors again (each one's prompt holds the other).
  await edit(page, withAnchor(`Email us, ${tag}.`));
  await expect.poll(() => judgeCalls(), { timeout: 15_000 }).toBe(start + 4);
  const spent = await panel.getByTestId("anchors-spend").textContent();

  // Back to the first text: served from the judge cache, no request, no spend.
  await edit(page, withAnchor(`Ask support, ${tag}.`));
  await expect(panel.getByTestId("anchors-source")).toContainText(
    "all 2 from the judge cache, no cost",
    { timeout: 15_000 },
  );
  await expect(results.nth(1)).toContainText("labelled 0.00 · judged 0.50");
  expect(await settledCalls(page)).toBe(start + 4);
  await expect(panel.getByTestId("anchors-spend")).toHaveText(spent!);

  // Switched off: an edit sends nothing.
  await panel.getByTestId("anchors-auto").uncheck();
  await edit(page, withAnchor(`Off, ${tag}.`));
  await page.waitForTimeout(2_500);
  expect(await settledCalls(page)).toBe(start + 4);
  await expect(panel.getByTestId("anchors-summary")).toContainText("(checked an earlier draft)");
});

test("as you type: past the spend cap the checks stop and the panel says so; a higher cap lets them go on", async ({
  page,
}) => {
  const tag = Date.now().toString(36);
  await openSuite(page, KEYED, `capped ${tag}`, ANCHOR_SUITE);
  const panel = page.getByTestId("anchors-panel");
  await panel.getByLabel("Spend cap for checking as you type (USD)").fill("0.001");
  await expect(panel.getByTestId("anchors-spend")).toHaveText("$0 of $0.0010 used");
  const start = await settledCalls(page);

  // One call costs more than $0.001: the check sends none, and says why.
  await edit(page, withAnchor(`Capped, ${tag}.`));
  await expect(panel.getByTestId("anchors-cap")).toContainText(
    "Spend cap reached: checking as you type has stopped",
    { timeout: 15_000 },
  );
  expect(await settledCalls(page)).toBe(start);
  // Stopped: a later edit is not even sent.
  await edit(page, withAnchor(`Still capped, ${tag}.`));
  await page.waitForTimeout(2_500);
  expect(await settledCalls(page)).toBe(start);

  // A cap with room: the next edit is graded.
  await panel.getByLabel("Spend cap for checking as you type (USD)").fill("1");
  await expect(panel.getByTestId("anchors-cap")).toHaveCount(0);
  await edit(page, withAnchor(`Room again, ${tag}.`));
  await expect.poll(() => judgeCalls(), { timeout: 15_000 }).toBe(start + 2);
  await expect(panel.getByTestId("anchors-source")).toContainText("Checked as you typed");
});
