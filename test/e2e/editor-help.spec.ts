import { readFileSync } from "node:fs";
import { expect, test, type Page } from "@playwright/test";

// Issue 12 §9 and §10, with exactly the README's files: the seeded example
// (`# yaml-language-server: $schema=../public/rubric-schema.json`) and the
// Quick start suite (`$schema=./public/rubric-schema.json`). Whatever the
// modeline says, the editor keeps the bundled schema's hover, completion and
// markers, and says nothing about the modeline; and the engine's reference
// errors show beside a typo's, not after it is fixed.

const EXAMPLE = readFileSync(new URL("../../examples/rubric-eval.yaml", import.meta.url), "utf8");
const README = readFileSync(new URL("../../README.md", import.meta.url), "utf8");
/** The Quick start's suite.yaml, as the README has it. */
const QUICK_START = /## Quick start[\s\S]*?```yaml\n([\s\S]*?)```/.exec(README)![1]!;

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

async function openSuite(page: Page, name: string, yaml: string): Promise<void> {
  const created = await page.request.post("/api/suites", {
    data: { name: `${name} ${Date.now().toString(36)}`, yaml },
  });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  await page.goto(`/suites/${id}`);
  await expect
    .poll(() => page.evaluate(() => globalThis.__rubricStudioEditor?.getValue() ?? null))
    .toBe(yaml);
}

/** Hover docs, completion, a typo's schema marker and no other schema marker: the schema is in use, whatever the modeline. */
async function expectSchemaHelp(page: Page, text: string, key: { line: string; docs: RegExp }) {
  const editor = page.getByTestId("editor");
  expect(text.split("\n")[0]).toMatch(
    /^# yaml-language-server: \$schema=\.{1,2}\/public\/rubric-schema\.json$/,
  );

  // Hover over a top-level key shows its description from the schema.
  await editor.locator(".view-line", { hasText: key.line }).locator("span > span").first().hover();
  await expect(page.locator(".monaco-hover").filter({ hasText: key.docs })).toBeVisible({
    timeout: 15_000,
  });
  await page.mouse.move(0, 0);

  // Completion on a fresh top-level line offers the schema's fields.
  const lines = text.split("\n").length;
  await page.evaluate((t) => globalThis.__rubricStudioEditor!.setValue(`${t}\n`), text);
  await editor.locator(".view-lines").click();
  await page.evaluate((line) => globalThis.__rubricStudioEditor!.setCursorLine(line), lines + 1);
  await page.keyboard.press("Control+Space");
  await expect(
    page.locator(".suggest-widget .monaco-list-row", { hasText: "judge" }).first(),
  ).toBeVisible({ timeout: 15_000 });
  await page.keyboard.press("Escape");

  // A typo gets the schema's marker on its line; the modeline gets none anywhere.
  await page.evaluate(
    (t) => globalThis.__rubricStudioEditor!.setValue(`${t}judgee: claude-sonnet-4-6\n`),
    text,
  );
  await expect
    .poll(async () => (await markers(page, "yaml")).map((m) => m.startLineNumber), {
      timeout: 15_000,
    })
    .toEqual([lines]);
  expect((await markers(page, "yaml")).map((m) => m.message).join("\n")).not.toMatch(
    /schema|resolve|load/i,
  );
}

test("the seeded example, with its ../public modeline: hover, completion and schema markers, and no warning about the modeline", async ({
  page,
}) => {
  await page.goto("/suites");
  await page
    .getByTestId("suite-row")
    .filter({ hasText: "examples/rubric-eval.yaml" })
    .getByRole("link")
    .first()
    .click();
  await expect
    .poll(() => page.evaluate(() => globalThis.__rubricStudioEditor?.getValue() ?? null))
    .toBe(EXAMPLE);
  // Untouched, the example has no schema marker at all (there was a warning on line 5).
  await page.waitForTimeout(1_500);
  expect(await markers(page, "yaml")).toEqual([]);
  await expectSchemaHelp(page, EXAMPLE, {
    line: "Support-assistant answers",
    docs: /What this suite checks/,
  });
});

test("the Quick start suite, with its ./public modeline: the same help", async ({ page }) => {
  await openSuite(page, "quick start", QUICK_START);
  await page.waitForTimeout(1_500);
  expect(await markers(page, "yaml")).toEqual([]);
  await expectSchemaHelp(page, QUICK_START, { line: "evals:", docs: /The rubric evals/ });
});

test("every problem at once: a typo's markers and an unknown ref's marker together, each on its line", async ({
  page,
}) => {
  const suite = `rubrics:
  tone:
    criteria:
      - name: polite
        description: "Polite."
evals:
  - name: billing
    response: "Invoice 42 totaled $120.00."
    rubric:
      criteria:
        - name: correct total
          descripton: "States the total."
  - name: greeting
    response: "Hello!"
    rubric: { ref: tones }
`;
  await openSuite(page, "all problems", suite);
  // The engine's markers: the typo (line 12) and the bad ref (line 15), at once.
  await expect
    .poll(
      async () =>
        (await markers(page, "rubric-studio"))
          .map((m) => m.startLineNumber)
          .filter((l) => l === 12 || l === 15),
      { timeout: 15_000 },
    )
    .toEqual(expect.arrayContaining([12, 15]));
  const engine = await markers(page, "rubric-studio");
  expect(engine.find((m) => m.startLineNumber === 15)?.message).toContain(
    'unknown rubric ref "tones" (did you mean "tone"?)',
  );
  // The schema's own marker for the typo is there too, and the Problems list names both.
  await expect
    .poll(async () => (await markers(page, "yaml")).map((m) => m.startLineNumber), {
      timeout: 15_000,
    })
    .toContain(12);
  await expect(page.getByTestId("issues-list")).toContainText('unknown field "descripton"');
  await expect(page.getByTestId("issues-list")).toContainText('unknown rubric ref "tones"');
});

// Issue 12 §11: the suite's YAML, any version, as a file.
test("Download: the editor's button saves the newest version, each version's link its own, named after the suite", async ({
  page,
}) => {
  const v1 = 'evals:\n  - name: first\n    response: "A."\n    rubric: "Is it right?"\n';
  const v2 = `${v1}  - name: second\n    response: "B."\n    rubric: "Is it right?"\n`;
  const name = `release notes ${Date.now().toString(36)}`;
  const created = await page.request.post("/api/suites", { data: { name, yaml: v1 } });
  const { id } = (await created.json()) as { id: string };
  expect(
    (await page.request.post(`/api/suites/${id}/versions`, { data: { yaml: v2 } })).status(),
  ).toBe(201);
  await page.goto(`/suites/${id}`);
  await expect(page.getByTestId("versions-list").locator("li")).toHaveCount(2);

  const saved = async (click: () => Promise<void>) => {
    const [download] = await Promise.all([page.waitForEvent("download"), click()]);
    const file = await download.path();
    return { name: download.suggestedFilename(), text: readFileSync(file, "utf8") };
  };
  // Saved as a .yaml file, named after the suite.
  expect(await saved(() => page.getByTestId("download-yaml").click())).toEqual({
    name: `${name}.yaml`,
    text: v2,
  });
  expect(await saved(() => page.getByRole("link", { name: "Download v1" }).click())).toEqual({
    name: `${name}.yaml`,
    text: v1,
  });
  const response = await page.request.get(`/api/suites/${id}/yaml`);
  expect(response.headers()["content-type"]).toBe("text/yaml; charset=utf-8");
  expect(response.headers()["content-disposition"]).toContain("attachment;");
});
