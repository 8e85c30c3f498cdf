import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { loadSuite } from "../../lib/config/load-suite";
import { jsonSchemaText } from "../../lib/config/json-schema";

const dir = new URL("../fixtures/guide/", import.meta.url);
const fixtures = readdirSync(dir).filter((f) => f.endsWith(".yaml"));

describe("every YAML example of the rubric-scoring guide", () => {
  it("has a fixture for each of the guide's 15 examples", () => {
    expect(fixtures).toHaveLength(15);
  });

  it.each(fixtures)("%s validates", (name) => {
    const text = readFileSync(new URL(name, dir), "utf8");
    const result = loadSuite({ text, file: name });
    expect(result.ok ? [] : result.issues).toEqual([]);
    // The comment that gives completion in VS Code (yaml-language-server).
    expect(text.split("\n")[0]).toBe(
      "# yaml-language-server: $schema=../../../public/rubric-schema.json",
    );
  });
});

describe("public/rubric-schema.json", () => {
  it("is the JSON Schema generated from the zod schema (run `npm run schema` after changing it)", () => {
    const committed = readFileSync(
      new URL("../../public/rubric-schema.json", import.meta.url),
      "utf8",
    );
    expect(committed).toBe(jsonSchemaText());
  });

  it("forbids unknown fields and documents fields for hover", () => {
    const schema = JSON.parse(jsonSchemaText());
    expect(schema.additionalProperties).toBe(false);
    const text = JSON.stringify(schema);
    expect(text).toContain("Hard gate: below its threshold");
    expect(text).toContain('"weighted_average"');
  });
});

describe("the example suite in examples/", () => {
  it("validates", () => {
    const file = new URL("../../examples/rubric-eval.yaml", import.meta.url);
    const result = loadSuite({
      text: readFileSync(file, "utf8"),
      file: "examples/rubric-eval.yaml",
    });
    expect(result.ok ? [] : result.issues).toEqual([]);
  });
});
