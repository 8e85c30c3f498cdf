import { expect, test, type Page } from "@playwright/test";
import { createSuite, setText, unique } from "./suite-editor";

// The authoring slice in a real browser: the suites list, the Monaco editor
// with monaco-yaml's schema markers and the engine's own markers, the live
// plan panel, versions with their diff, rename, delete, and hostile names.

interface Marker {
  owner: string;
  message: string;
  startLineNumber: number;
}

async function markers(page: Page, owner: string): Promise<Marker[]> {
  return page.evaluate(
    (o) =>
      globalThis
        .__rubricStudioEditor!.getMarkers(o)
        .map((m) => ({ owner: m.owner, message: m.message, startLineNumber: m.startLineNumber })),
    owner,
  );
}

const SUITE = (extra = "") => `evals:
  - name: billing
    response: "Invoice 42 totaled $120.00."
    rubric:
      criteria:
        - name: correct total
          description: "States the total."
${extra}`;

test("the seeded example suite is listed with its version", async ({ page }) => {
  await page.goto("/");
  await expect(page).toHaveURL(/\/suites$/);
  const row = page.getByTestId("suite-row").filter({ hasText: "examples/rubric-eval.yaml" });
  await expect(row).toBeVisible();
  await expect(row.locator("td").nth(1)).toHaveText("1");
  await expect(page.getByRole("link", { name: "Runs" })).toBeVisible();
});

test("a typo shows a schema marker, an unknown preset the engine's marker on its line, and fixing both clears them", async ({
  page,
}) => {
  await createSuite(page, unique("markers"));
  await setText(
    page,
    `evals:
  - name: billing
    response: "Invoice 42 totaled $120.00."
    rubric:
      criteria:
        - name: correct total
          descripton: "States the total."
`,
  );
  await expect
    .poll(async () => (await markers(page, "yaml")).map((m) => m.startLineNumber), {
      timeout: 15_000,
    })
    .toContain(7);

  await setText(
    page,
    `evals:
  - name: billing
    response: "Invoice 42 totaled $120.00."
    rubric:
      preset: helpfullness
`,
  );
  await expect
    .poll(async () =>
      (await markers(page, "rubric-studio")).map((m) => `${m.startLineNumber}: ${m.message}`),
    )
    .toEqual([expect.stringMatching(/^5: .*helpfullness/)]);
  await expect(page.getByTestId("issues-list")).toContainText("helpfullness");

  await setText(page, SUITE());
  await expect
    .poll(async () => [...(await markers(page, "yaml")), ...(await markers(page, "rubric-studio"))])
    .toEqual([]);
  await expect(page.getByText("The engine loads this suite without complaint.")).toBeVisible();
});

test("the plan panel counts one more judge call when a criterion is added", async ({ page }) => {
  await createSuite(page, unique("plan"));
  await setText(page, SUITE());
  await expect(page.getByTestId("plan-calls")).toHaveText("1");
  await setText(page, SUITE(`        - name: polite\n          description: "Polite tone."\n`));
  await expect(page.getByTestId("plan-calls")).toHaveText("2");
  // The cost per eval, as `eval --explain` gives it: the eval's name, then calls, naive, with the prompt cache, with batches, unchanged rerun.
  const evals = page.getByTestId("plan-evals").locator("tbody");
  await expect(evals).toHaveCount(1);
  await expect(evals.first().locator("th")).toHaveText("billing");
  await expect(evals.first().locator("td")).toHaveText(["2", /^\$\d/, /^\$\d/, /^\$\d/, "$0"]);
  // No key on the test server: every eval is listed as deferring, and why.
  await page.getByText("Evals that will defer").click();
  await expect(page.getByTestId("plan-deferred")).toContainText("ANTHROPIC_API_KEY");
});

test("two saves make two new versions, and the diff shows the changed line", async ({ page }) => {
  await createSuite(page, unique("versions"));
  const versions = page.getByTestId("versions-list").locator("li");
  await expect(versions).toHaveCount(1); // the starter text

  await setText(page, SUITE());
  await page.getByRole("button", { name: "Save version" }).click();
  await expect(versions).toHaveCount(2);

  await setText(page, SUITE().replace("States the total.", "States the total of $120.00."));
  await page.locator(".monaco-editor textarea").focus();
  await page.keyboard.press("Control+s");
  await expect(versions).toHaveCount(3);
  await expect(page.getByText("Unsaved changes")).toHaveCount(0);

  const diff = page.getByTestId("version-diff");
  await expect(diff.locator('[data-kind="del"]')).toHaveText([/description: "States the total\."/]);
  await expect(diff.locator('[data-kind="add"]')).toHaveText([
    /description: "States the total of \$120\.00\."/,
  ]);

  // Saving the same text again adds no version.
  await page.getByRole("button", { name: "Save version" }).click();
  await expect(page.getByText("No changes since the last version.")).toBeVisible();
  await expect(versions).toHaveCount(3);

  // Text that does not load is not saved, by Ctrl+S as by the button: the refusal names each error's line and column.
  await setText(page, SUITE().replace("rubric:", "rubrc:"));
  await page.locator(".monaco-editor textarea").focus();
  await page.keyboard.press("Control+s");
  await expect(page.getByTestId("save-error")).toContainText(
    /^Not saved: the suite does not load\. line \d+:\d+: /,
  );
  await page.getByRole("button", { name: "Save version" }).click();
  await expect(page.getByTestId("save-error")).toContainText("Not saved: the suite does not load.");
  await expect(versions).toHaveCount(3);
  await expect(page.getByText("Unsaved changes")).toBeVisible();
});

test("rename and delete (after confirming) work from the list", async ({ page }) => {
  const name = unique("rename me");
  const renamed = unique("renamed");
  await createSuite(page, name);
  await page.goto("/suites");
  const row = page.getByTestId("suite-row").filter({ hasText: name });
  // While a row is being renamed its name is an input's value, not text: reach the form by its label.
  await row.getByRole("button", { name: "Rename" }).click();
  const form = page.getByRole("form", { name: `Rename ${name}` });
  await form.getByLabel("New name").fill(renamed);
  await form.getByRole("button", { name: "Save" }).click();
  const renamedRow = page.getByTestId("suite-row").filter({ hasText: renamed });
  await expect(renamedRow).toBeVisible();

  // A name already taken is refused with a message, not a crash.
  await renamedRow.getByRole("button", { name: "Rename" }).click();
  const again = page.getByRole("form", { name: `Rename ${renamed}` });
  await again.getByLabel("New name").fill("examples/rubric-eval.yaml");
  await again.getByRole("button", { name: "Save" }).click();
  await expect(again).toContainText("already exists");
  await again.getByRole("button", { name: "Cancel" }).click();
  await expect(renamedRow).toBeVisible();

  await renamedRow.getByRole("button", { name: "Delete" }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog).toContainText(renamed);
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(renamedRow).toBeVisible();

  await renamedRow.getByRole("button", { name: "Delete" }).click();
  await dialog.getByRole("button", { name: "Delete suite" }).click();
  await expect(page.getByTestId("suite-row").filter({ hasText: renamed })).toHaveCount(0);
  await page.reload();
  await expect(page.getByTestId("suite-row").filter({ hasText: renamed })).toHaveCount(0);
});

test("a hostile suite name renders as text, in the list and in the editor", async ({ page }) => {
  const dialogs: string[] = [];
  page.on("dialog", (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  const name = `<img src=x onerror=alert(1)> ${Date.now()}`;
  await createSuite(page, name);
  await expect(page.locator("main img")).toHaveCount(0);
  await page.goto("/suites");
  const row = page.getByTestId("suite-row").filter({ hasText: name });
  await expect(row.getByRole("link")).toHaveText(name);
  await expect(row.locator("img")).toHaveCount(0);
  expect(dialogs).toEqual([]);
});
