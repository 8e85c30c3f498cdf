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
