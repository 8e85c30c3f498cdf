import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { makeWorkspace } from "./cli-harness";

// `rubric-studio import` as a user meets it (issue 12 §13): the $schema
// modeline points at a file that is there (so editors find it offline), the
// file ends with a newline, a --document that does not exist is refused, and
// without --document the command says what to add before the suite validates.

const RUBRICSET = readFileSync(
  new URL("../fixtures/review/prd-rubricset.json", import.meta.url),
  "utf8",
);
const REPO_SCHEMA = path.resolve(
  new URL("../../public/rubric-schema.json", import.meta.url).pathname,
);

function modelineTarget(text: string): string | undefined {
  return /^# yaml-language-server: \$schema=(\S+)$/m.exec(text)?.[1];
}

describe.concurrent("rubric-studio import", () => {
  test("the $schema modeline is a relative path to the installed schema, from the suite's own folder, and the file ends with a newline", async ({
    onTestFinished,
  }) => {
    const ws = await makeWorkspace(onTestFinished);
    await ws.write("prd.json", RUBRICSET);
    await ws.write("docs/prd.md", "# Checkout v2\n");
    const run = await ws.cli([
      "import",
      "prd.json",
      "--output",
      "suites/reviews.yaml",
      "--document",
      "docs/prd.md",
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('rubric "prd-review" with 3 categories');
    const text = await ws.read("suites/reviews.yaml");
    expect(text).toContain("min_categories_passing: all_required");
    const target = modelineTarget(text);
    expect(target, text.slice(0, 200)).toBeDefined();
    expect(target).not.toMatch(/^https?:/);
    // Resolved the way an editor does, against the suite file's folder: the schema file this package ships.
    expect(path.resolve(ws.dir, "suites", target!)).toBe(REPO_SCHEMA);
    expect(text.endsWith("\n")).toBe(true);
    // The document path is relative to the suite file too, so the suite validates where it was written.
    expect(text).toContain("file: ../docs/prd.md");
    const validate = await ws.cli(["validate", "--config", "suites/reviews.yaml"]);
    expect(validate.code, validate.stderr).toBe(0);
  });

  test("a --document that does not exist is refused with exit 2 and nothing written", async ({
    onTestFinished,
  }) => {
    const ws = await makeWorkspace(onTestFinished);
    await ws.write("prd.json", RUBRICSET);
    const run = await ws.cli([
      "import",
      "prd.json",
      "--output",
      "reviews.yaml",
      "--document",
      "docs/missing.md",
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("--document docs/missing.md: file not found");
    await expect(ws.read("reviews.yaml")).rejects.toThrow();
  });

  test("without --document, it says plainly what to add; once the document is there, the suite validates", async ({
    onTestFinished,
  }) => {
    const ws = await makeWorkspace(onTestFinished);
    await ws.write("prd.json", RUBRICSET);
    const run = await ws.cli(["import", "prd.json", "--output", "reviews.yaml"]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain(
      'no --document given: the review eval reads "document.md" next to the suite, which does not exist yet',
    );
    expect(run.stderr).toContain("--document FILE");
    await ws.write("document.md", "The document.\n");
    const validate = await ws.cli(["validate", "--config", "reviews.yaml"]);
    expect(validate.code, validate.stderr).toBe(0);
  });

  test('a RubricSet as Go writes it imports: description always written (""), a categorical scale with no options, passCriteria {}', async ({
    onTestFinished,
  }) => {
    const ws = await makeWorkspace(onTestFinished);
    // json.Marshal of a RubricSet with one NewCategory("a", "A", "") and no options added.
    await ws.write(
      "min1.json",
      JSON.stringify(
        {
          id: "min1",
          name: "Minimal",
          version: "1.0.0",
          passCriteria: {},
          categories: [
            { id: "a", name: "A", description: "", required: true, scale: { type: "categorical" } },
          ],
        },
        null,
        2,
      ),
    );
    await ws.write("doc.md", "Text.\n");
    const run = await ws.cli([
      "import",
      "min1.json",
      "--output",
      "min1.yaml",
      "--document",
      "doc.md",
    ]);
    expect(run.code, run.stderr).toBe(0);
    const validate = await ws.cli(["validate", "--config", "min1.yaml"]);
    expect(validate.code, validate.stderr).toBe(0);
  });

  test("what the suite cannot take is located by its JSON path in the input file, never at a line of a YAML file import did not write", async ({
    onTestFinished,
  }) => {
    const ws = await makeWorkspace(onTestFinished);
    await ws.write(
      "min1.json",
      JSON.stringify({
        id: "min1",
        name: "Minimal",
        version: "1.0.0",
        passCriteria: { minCategoriesPassing: "3" },
        categories: [
          { id: "a", name: "A", description: "x", scale: { type: "categorical" } },
          { id: "a", name: "B", description: "y", scale: { type: "categorical" } },
        ],
      }),
    );
    const run = await ws.cli(["import", "min1.json", "--output", "min1.yaml"]);
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split("\n")).toEqual([
      "min1.json: passCriteria.minCategoriesPassing: min_categories_passing is 3 but the rubric has only 2 categories: no review could pass",
      'min1.json: categories.1.id: duplicate category id "a": findings and results are keyed by it',
    ]);
    expect(run.stderr).not.toContain("min1.yaml");
    await expect(ws.read("min1.yaml")).rejects.toThrow();
  });

  test("to stdout: the modeline is relative to the current folder and the text ends with a newline", async ({
    onTestFinished,
  }) => {
    const ws = await makeWorkspace(onTestFinished);
    await ws.write("prd.json", RUBRICSET);
    await ws.write("doc.md", "Text.\n");
    const run = await ws.cli(["import", "prd.json", "--document", "doc.md"]);
    expect(run.code, run.stderr).toBe(0);
    expect(path.resolve(ws.dir, modelineTarget(run.stdout)!)).toBe(REPO_SCHEMA);
    expect(run.stdout.endsWith("\n")).toBe(true);
    expect(run.stderr).toBe("");
  });
});
