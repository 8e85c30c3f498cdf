import { expect, type Page } from "@playwright/test";

// Shared by the editor's browser tests: make a suite in the dashboard and
// drive its Monaco editor through the page's test handle.

export const unique = (label: string) =>
  `${label} ${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

export async function createSuite(page: Page, name: string) {
  await page.goto("/suites");
  await page.getByRole("button", { name: "New suite" }).click();
  await page.getByLabel("Name").fill(name);
  await page.getByRole("button", { name: "Create suite" }).click();
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  await page.waitForFunction(() => globalThis.__rubricStudioEditor !== undefined);
}

export async function setText(page: Page, text: string) {
  await page.evaluate((t) => globalThis.__rubricStudioEditor!.setValue(t), text);
}
