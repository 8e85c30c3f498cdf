import { describe, expect, it } from "vitest";
import { gitlabReporter } from "../../lib/report/gitlab";
import { buildSampleReport, sampleResults } from "../support/sample-report";

interface Issue {
  description: string;
  check_name: string;
  fingerprint: string;
  severity: string;
  location: { path: string; lines: { begin: number } };
}

function render(report = buildSampleReport()): Issue[] {
  return JSON.parse(gitlabReporter.render(report, { color: false })) as Issue[];
}

describe("gitlab code quality reporter", () => {
  it("is an array of issues with every key GitLab requires", () => {
    const issues = render();
    expect(Array.isArray(issues)).toBe(true);
    expect(issues).toHaveLength(4);
    for (const issue of issues) {
      expect(issue.description).toEqual(expect.any(String));
      expect(issue.check_name).toMatch(/^rubric\//);
      expect(issue.fingerprint).toMatch(/^[0-9a-f]{64}$/);
      expect(["blocker", "critical", "major", "minor", "info"]).toContain(issue.severity);
      expect(issue.location.path).toBe("examples/rubric-eval.yml");
      expect(Number.isInteger(issue.location.lines.begin) && issue.location.lines.begin >= 1).toBe(
        true,
      );
    }
  });

  it("ranks a failure above a judge error, a budget skip and a deferral", () => {
    const severity = Object.fromEntries(render().map((i) => [i.check_name, i.severity]));
    expect(severity).toEqual({
      "rubric/failed": "critical",
      "rubric/judge-error": "major",
      "rubric/skipped-budget": "minor",
      "rubric/deferred": "info",
    });
  });

  it("has unique fingerprints that stay the same across runs and change with the status", () => {
    const first = render().map((i) => i.fingerprint);
    expect(new Set(first).size).toBe(first.length);
    // Two matrix cells share an eval and a line; their ids keep them apart.
    const cells = sampleResults()
      .filter((r) => r.eval === "summary quality")
      .map((r) => ({ ...r, status: "failed" as const }));
    const cellPrints = render(buildSampleReport({ results: cells })).map((i) => i.fingerprint);
    expect(new Set(cellPrints).size).toBe(2);
    const rerun = sampleResults().map((r) => ({
      ...r,
      costUsd: r.costUsd * 2,
      reason: `${r.reason}!`,
    }));
    expect(render(buildSampleReport({ results: rerun })).map((i) => i.fingerprint)).toEqual(first);
    const failedNowSkipped = sampleResults().map((r) =>
      r.status === "failed" ? { ...r, status: "skipped" as const } : r,
    );
    expect(
      render(buildSampleReport({ results: failedNowSkipped })).map((i) => i.fingerprint),
    ).not.toEqual(first);
  });

  it("is an empty array for an all-green run", () => {
    expect(
      render(buildSampleReport({ results: sampleResults().filter((r) => r.status === "passed") })),
    ).toEqual([]);
  });
});
