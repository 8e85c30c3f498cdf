import { describe, expect, it } from "vitest";
import { sarifReporter } from "../../lib/report/sarif";
import { buildSampleReport, sampleResults } from "../support/sample-report";

interface SarifResult {
  ruleId: string;
  ruleIndex: number;
  level: string;
  message: { text: string };
  locations: {
    physicalLocation: {
      artifactLocation: { uri: string };
      region?: { startLine: number; startColumn: number };
    };
  }[];
  properties: { evalId: string; status: string };
}

interface SarifLog {
  $schema: string;
  version: string;
  runs: {
    tool: { driver: { name: string; version: string; rules: { id: string }[] } };
    results: SarifResult[];
  }[];
}

function render(report = buildSampleReport()): SarifLog {
  return JSON.parse(sarifReporter.render(report, { color: false })) as SarifLog;
}

describe("sarif reporter", () => {
  it("is a SARIF 2.1.0 log with one run by rubric-studio", () => {
    const log = render();
    expect(log.$schema).toBe("https://json.schemastore.org/sarif-2.1.0.json");
    expect(log.version).toBe("2.1.0");
    expect(log.runs).toHaveLength(1);
    expect(log.runs[0]?.tool.driver.name).toBe("rubric-studio");
    expect(log.runs[0]?.tool.driver.version).toBe("0.1.0");
  });

  it("has a rule per kind of problem, and every result points at its rule", () => {
    const run = render().runs[0]!;
    const ids = run.tool.driver.rules.map((r) => r.id);
    expect(ids).toEqual(
      expect.arrayContaining([
        "rubric/failed",
        "rubric/judge-error",
        "rubric/skipped-budget",
        "rubric/deferred",
      ]),
    );
    for (const result of run.results)
      expect(run.tool.driver.rules[result.ruleIndex]?.id).toBe(result.ruleId);
  });

  it("reports only the evals that did not pass, each at its level", () => {
    const results = render().runs[0]!.results;
    const levels = Object.fromEntries(
      results.map((r) => [r.properties.status, [r.level, r.ruleId]]),
    );
    expect(results).toHaveLength(4);
    expect(levels).toEqual({
      failed: ["error", "rubric/failed"],
      judge_error: ["error", "rubric/judge-error"],
      skipped: ["warning", "rubric/skipped-budget"],
      deferred: ["note", "rubric/deferred"],
    });
    const failed = results.find((r) => r.ruleId === "rubric/failed");
    expect(failed?.message.text).toContain("grounded answer with citations");
    expect(failed?.message.text).toContain('required criterion "states the version" failed');
  });

  it("locates each finding in the suite file at the eval's line and column", () => {
    const failed = render().runs[0]!.results.find((r) => r.ruleId === "rubric/failed");
    expect(failed?.locations[0]?.physicalLocation).toEqual({
      artifactLocation: { uri: "examples/rubric-eval.yml" },
      region: { startLine: 12, startColumn: 5 },
    });
  });

  it("falls back to the suite file, without a region, when a result has no location", () => {
    const results = sampleResults().map((r) => ({ ...r, location: undefined }));
    const report = buildSampleReport({ results, suite: { file: "suites\\release gate.yml" } });
    const location = render(report).runs[0]!.results[0]?.locations[0]?.physicalLocation;
    expect(location).toEqual({ artifactLocation: { uri: "suites/release%20gate.yml" } });
  });

  it("has no results for an all-green run", () => {
    const results = sampleResults().filter((r) => r.status === "passed");
    expect(render(buildSampleReport({ results })).runs[0]!.results).toEqual([]);
  });
});
