import { describe, expect, it } from "vitest";
import type { Report } from "../../lib/engine/results/report";
import { jsonReporter } from "../../lib/report/json";
import { buildSampleReport } from "../support/sample-report";

describe("json reporter", () => {
  it("is the report itself, as pretty JSON", () => {
    const report = buildSampleReport();
    const text = jsonReporter.render(report, { color: false });
    expect(JSON.parse(text)).toEqual(report);
    expect(text).toMatch(/^\{\n {2}"schemaVersion": 1,\n {2}"tool": /);
    expect(text.endsWith("}\n")).toBe(true);
  });

  it("gives the same bytes for the same report however its keys were ordered", () => {
    const report = buildSampleReport();
    const reversed = JSON.parse(JSON.stringify(report), (_key, value: unknown) =>
      value && typeof value === "object" && !Array.isArray(value)
        ? Object.fromEntries(Object.entries(value).reverse())
        : value,
    ) as Report;
    expect(Object.keys(reversed)[0]).not.toBe(Object.keys(report)[0]);
    expect(jsonReporter.render(reversed, { color: false })).toBe(
      jsonReporter.render(report, { color: false }),
    );
  });
});
