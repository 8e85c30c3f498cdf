import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { loadSuite } from "../../lib/config/load-suite";
import {
  parseRubricSetJson,
  rubricSetToJson,
  rubricSetToSuiteYaml,
} from "../../lib/config/rubric-set-json";

// The Go package's RubricSet JSON (spec 004): importing it writes a YAML suite
// that loads, and the loaded rubric writes back the very same JSON, field
// names and key order included. The fixture is built from the spec's types as
// Go's builders fill them (WithPassPartialFail, WithBinary, WithChecklist).

const fixtureText = readFileSync(
  new URL("../fixtures/review/prd-rubricset.json", import.meta.url),
  "utf8",
);

function importFixture(text = fixtureText) {
  const parsed = parseRubricSetJson(text);
  if (!parsed.ok) throw new Error(parsed.issues.join("\n"));
  const yaml = rubricSetToSuiteYaml({
    rubric: parsed.value,
    document: "prd.md",
    source: "prd-rubricset.json",
  });
  if (!yaml.ok) throw new Error(yaml.issues.join("\n"));
  return yaml.text;
}

describe("RubricSet JSON <-> the YAML language", () => {
  it("imports to a suite that loads, with the rubric under its id and a review eval of the document", () => {
    const text = importFixture();
    expect(text).toContain("prd-review:");
    expect(text).toContain("evaluation_prompt: Look for user research.");
    expect(text).toContain("required_items:");
    const loaded = loadSuite({ text, file: "suite.yaml" });
    if (!loaded.ok) throw new Error(loaded.issues.map((i) => i.message).join("\n"));
    expect(loaded.value.evals[0]).toMatchObject({
      name: "review PRD Review",
      document: { file: "prd.md" },
      rubric: { kind: "categories" },
    });
  });

  it("round-trips: JSON -> YAML -> loaded rubric -> JSON is the original, key for key and in Go's field order", () => {
    const loaded = loadSuite({ text: importFixture(), file: "suite.yaml" });
    if (!loaded.ok) throw new Error("does not load");
    const rubric = loaded.value.evals[0]!.rubric;
    if (rubric.kind !== "categories") throw new Error("not a category rubric");
    const written = JSON.stringify(rubricSetToJson(rubric.rubricSet), null, 2);
    expect(written).toBe(JSON.stringify(JSON.parse(fixtureText), null, 2));
  });

  it("reports what YAML cannot hold: a score value other than pass, partial, fail; a non-numeric minimum", () => {
    const bad = JSON.parse(fixtureText) as {
      passCriteria: { minCategoriesPassing: string };
      categories: { scale: { options?: { value: string }[] } }[];
    };
    bad.passCriteria.minCategoriesPassing = "most";
    bad.categories[0]!.scale.options![1]!.value = "meh";
    const parsed = parseRubricSetJson(JSON.stringify(bad));
    if (!parsed.ok) throw new Error("should parse as JSON");
    const yaml = rubricSetToSuiteYaml({ rubric: parsed.value, document: "d.md", source: "x.json" });
    expect(yaml.ok).toBe(false);
    if (!yaml.ok) {
      expect(yaml.issues).toContain(
        'passCriteria.minCategoriesPassing: "most" is not all, all_required or a number',
      );
      expect(yaml.issues).toContain(
        'categories.0.scale.options.1.value: "meh" is not pass, partial or fail',
      );
    }
  });

  it("names the field when the JSON is not a RubricSet", () => {
    const parsed = parseRubricSetJson(
      JSON.stringify({
        id: "x",
        name: "x",
        version: "1",
        passCriteria: {},
        categories: [{ id: "a" }],
      }),
    );
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.issues.join("\n")).toMatch(/categories\.0\.name/);
    expect(parseRubricSetJson("{ not json").ok).toBe(false);
  });
});
