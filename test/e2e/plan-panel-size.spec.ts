import { expect, test, type Page } from "@playwright/test";
import { createSuite, setText, unique } from "./suite-editor";
import { matrixSuite } from "../support/matrix-suite";

// The editor's plan panel at the size a real suite reaches: 20 evals, each over a 50-prompt matrix
// (1,000 cells). It lists one row per eval with its cells summed, so the panel stays a screen's
// height and Problems is in view beside the editor; the rows add up to the headline figures.

const BIG = matrixSuite({ evals: 20, prompts: 50 });
const ONE = `judge: { model: claude-sonnet-4-5 }
evals:
  - name: greets
    response: "Hello."
    rubric: "Greets the user."
`;

const dollars = (s: string) => Number(/\$([\d,.]+)/.exec(s)![1]!.replace(/,/g, ""));
const count = (s: string) => Number(s.replace(/[^\d]/g, ""));

/** The Problems heading shows whole without scrolling: in the window, and in the side column's box (which scrolls, and ends above the window's bottom). */
async function problemsInView(page: Page) {
  const heading = page.getByRole("heading", { name: /^Problems/ });
  await expect(heading).toBeVisible();
  return heading.evaluate((h) => {
    const box = h.getBoundingClientRect();
    const side = h.closest(".side")!.getBoundingClientRect();
    const bottom = Math.min(window.innerHeight, side.bottom);
    return box.top >= Math.max(0, side.top) && box.bottom <= bottom;
  });
}

test("20 evals × 50 prompts: one row per eval, summed; Problems in view", async ({ page }) => {
  await page.setViewportSize({ width: 1400, height: 900 });
  await createSuite(page, unique("plan size"));
  await setText(page, BIG);
  const table = page.getByTestId("plan-evals");
  await expect(page.getByTestId("plan-calls")).toHaveText("1,000");
  if (process.env.E2E_SHOTS) await page.screenshot({ path: `${process.env.E2E_SHOTS}/big.png` });
  expect(await problemsInView(page)).toBe(true);
  await expect(page.getByTestId("plan-cells")).toHaveText("1,000");
  const rows = table.getByTestId("plan-eval");
  await expect(rows).toHaveCount(20);
  // No cell row is drawn until its eval's breakdown is opened.
  expect(await table.locator("[data-testid=plan-cell]:visible").count()).toBe(0);

  const figures = await rows.evaluateAll((trs) =>
    trs.map((tr) => ({
      cells: tr.getAttribute("data-cells")!,
      cols: [...tr.querySelectorAll("td")].map((td) => td.textContent!),
    })),
  );
  expect(figures.map((f) => f.cells)).toEqual(Array(20).fill("50"));
  const calls = figures.reduce((n, f) => n + count(f.cols[0]!), 0);
  expect(calls).toBe(count(await page.getByTestId("plan-calls").innerText()));
  expect(calls).toBe(1000);
  // Judges' cost with the cache: the rows' sum is the headline's judges part (within the rounding
  // of twenty four-decimal amounts).
  const judged = figures.reduce((n, f) => n + dollars(f.cols[2]!), 0);
  const apart = await page.getByTestId("plan-cost-apart").innerText();
  expect(Math.abs(judged - dollars(apart.split("+")[0]!))).toBeLessThanOrEqual(20 * 0.00005 + 1e-9);
  const naive = figures.reduce((n, f) => n + dollars(f.cols[1]!), 0);
  expect(
    Math.abs(naive - dollars(await page.getByTestId("plan-naive-cost").innerText())),
  ).toBeLessThanOrEqual(20 * 0.00005 + 1e-9);

  // An eval's cells on demand: the costliest few, and how many more.
  await rows.first().locator("xpath=..").getByText("50 cells").click();
  const first = table.locator("tbody").first();
  await expect(first.getByTestId("plan-cell").first()).toBeVisible();
  await expect(first).toContainText("… and 45 more cells");
  if (process.env.E2E_SHOTS) await page.screenshot({ path: `${process.env.E2E_SHOTS}/open.png` });
  // Every column shows whole in the side column's width (no Rerun figure cut at the edge).
  const box = page.locator(".plan-scroll");
  expect(await box.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
});

test("one eval: its row, no breakdown, Problems in view", async ({ page }) => {
  await page.setViewportSize({ width: 1400, height: 900 });
  await createSuite(page, unique("plan one"));
  await setText(page, ONE);
  await expect(page.getByTestId("plan-calls")).toHaveText("1");
  if (process.env.E2E_SHOTS) await page.screenshot({ path: `${process.env.E2E_SHOTS}/one.png` });
  const rows = page.getByTestId("plan-evals").getByTestId("plan-eval");
  await expect(rows).toHaveCount(1);
  await expect(page.getByTestId("plan-evals")).toContainText("greets");
  await expect(page.getByTestId("plan-evals").locator("details")).toHaveCount(0);
  expect(await problemsInView(page)).toBe(true);
});
