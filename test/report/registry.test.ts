import { describe, expect, it } from "vitest";
import type { EvalResult, EvalStatus } from "../../lib/engine/results/report";
import { REPORTERS, REPORTER_NAMES, parseReporterList } from "../../lib/report/registry";
import { buildSampleReport, sampleResults } from "../support/sample-report";

const GUIDE_ORDER = [
  "pretty",
  "json",
  "junit",
  "md",
  "html",
  "sarif",
  "gitlab",
  "ndjson",
  "tap",
  "csv",
];
// Code-scanning formats list findings, and a pass is not a finding.
const FINDINGS_ONLY = new Set(["sarif", "gitlab"]);

describe("the reporter registry", () => {
  it("lists the nine formats of the guide, in its order, then csv, each under its own name", () => {
    expect(REPORTER_NAMES).toEqual(GUIDE_ORDER);
    expect(Object.keys(REPORTERS)).toEqual(GUIDE_ORDER);
    for (const name of REPORTER_NAMES) {
      expect(REPORTERS[name].name).toBe(name);
      expect(REPORTERS[name].extension).toMatch(/^[a-z]+$/);
      expect(REPORTERS[name].description.length).toBeGreaterThan(0);
    }
  });

  for (const name of GUIDE_ORDER) {
    const reporter = REPORTERS[name as keyof typeof REPORTERS];

    it(`${name}: renders the sample and mentions every result${FINDINGS_ONLY.has(name) ? " that is not a pass" : ""}`, () => {
      const report = buildSampleReport();
      for (const color of [false, true]) {
        const text = reporter.render(report, { color });
        expect(text.length).toBeGreaterThan(0);
        for (const result of report.results) {
          const mentioned = text.includes(result.name) || text.includes(result.id);
          const expected = !(FINDINGS_ONLY.has(name) && result.status === "passed");
          expect(mentioned, `${name}: "${result.name}" (${result.status})`).toBe(expected);
        }
      }
    });

    it(`${name}: tells every status apart`, () => {
      // One result, identical but for its status, and one fixed summary, so that
      // only the way the format shows the status can make the outputs differ.
      const template = sampleResults().find((r) => r.status === "failed") as EvalResult;
      const summary = buildSampleReport().summary;
      const variants: [string, Pick<EvalResult, "status" | "vacuous">][] = [
        ["passed", { status: "passed", vacuous: false }],
        ["failed", { status: "failed", vacuous: false }],
        ["deferred", { status: "deferred", vacuous: false }],
        ["judge_error", { status: "judge_error", vacuous: false }],
        ["skipped", { status: "skipped", vacuous: false }],
      ];
      // SARIF and GitLab list findings only, and a vacuous pass is not a finding.
      if (name !== "sarif" && name !== "gitlab")
        variants.push(["vacuous", { status: "passed", vacuous: true }]);
      const outputs = new Map<string, string>();
      for (const [label, fields] of variants) {
        const report = buildSampleReport({
          results: [{ ...template, ...fields, note: "a note" }],
          summary,
        });
        outputs.set(label, reporter.render(report, { color: false }));
      }
      const distinct = new Set(outputs.values());
      expect(distinct.size, `${name} renders two statuses identically`).toBe(variants.length);
    });

    it(`${name}: shows no secret, redacting the report itself`, () => {
      const secret = "sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789";
      const results = sampleResults().map((r) => ({
        ...r,
        reason: `${r.reason} (key ${secret})`,
        note: `uses ${secret}`,
        criteria: r.criteria.map((c) => ({ ...c, reasoning: `saw ${secret}`, evidence: secret })),
      }));
      const text = reporter.render(buildSampleReport({ results }), { color: false });
      expect(text).not.toContain("abcdefghijklmnopqrstuvwxyz0123456789");
      expect(text).toContain("REDACTED"); // Markdown escapes the brackets
    });
  }
});

describe("parseReporterList", () => {
  it("accepts a comma-separated list, trimming, lower-casing and dropping repeats", () => {
    expect(parseReporterList("pretty,junit")).toEqual({ ok: true, value: ["pretty", "junit"] });
    expect(parseReporterList(" SARIF , md,sarif ")).toEqual({ ok: true, value: ["sarif", "md"] });
  });

  it("names the unknown reporter and every valid choice", () => {
    const result = parseReporterList("pretty,xml");
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.message).toContain('"xml"');
    for (const name of GUIDE_ORDER) expect(result.message).toContain(name);
  });

  it("rejects an empty list", () => {
    expect(parseReporterList(" , ").ok).toBe(false);
  });
});

describe("the sample report", () => {
  it("covers every status, a vacuous pass, a tree path and a matrix cell", () => {
    const report = buildSampleReport();
    const statuses = new Set<EvalStatus>(report.results.map((r) => r.status));
    expect([...statuses].sort()).toEqual([
      "deferred",
      "failed",
      "judge_error",
      "passed",
      "skipped",
    ]);
    expect(report.results.some((r) => r.vacuous)).toBe(true);
    expect(report.results.some((r) => (r.tree?.path.length ?? 0) > 0)).toBe(true);
    expect(report.results.some((r) => r.cell !== null)).toBe(true);
    expect(report.summary.total).toBe(report.results.length);
  });
});
