import { XMLParser, XMLValidator } from "fast-xml-parser";
import { beforeAll, describe, expect, it } from "vitest";
import { REPORTERS } from "../../lib/report/registry";
import { redactDeep } from "../../lib/engine/results/redact-secrets";
import type { Report } from "../../lib/engine/results/report";
import { categoryOf, createFakeJudge, type FakeAnswer } from "../support/fake-judge";
import { runYaml } from "../support/run-yaml";

// Reviews, comparisons and judge agreement as each format shows them: the
// findings of a review become JUnit failures, SARIF results with levels from
// their severity and GitLab issues at the document; md and html show the
// decision, the findings, the position bias and the agreement table, escaped.

const SUITE = `
evals:
  - name: prd review
    document: { file: docs/prd.md }
    rubric:
      categories:
        - { id: goal, description: "States the goal.", required: true }
        - { id: risk, description: "Covers risks." }
    judge: { jury: { size: 2 }, aggregate: conservative }
  - name: v1 vs v2
    rubric: "Which is better?"
    compare: { input: "Q", output_a: "first answer", output_b: "second answer" }
`;

const verdict = (
  score: "pass" | "partial",
  findings: { severity: "high" | "medium" | "info"; title: string }[],
): FakeAnswer => ({
  verdict: {
    reasoning: "<script>alert(1)</script> reasoning",
    score,
    evidence: [],
    findings: findings.map((f) => ({
      ...f,
      description: `${f.title} described`,
      recommendation: `Fix ${f.title}`,
    })),
  },
});

let report: Report;
beforeAll(async () => {
  const judge = createFakeJudge((request) => {
    if (request.verdict === "pairwise")
      return { verdict: { reasoning: "first wins", winner: "A", confidence: 0.7 } };
    return categoryOf(request) === "goal"
      ? verdict("pass", [{ severity: "info", title: "Nice framing" }])
      : verdict("partial", [
          { severity: "high", title: "No rollback <b>plan</b>" },
          { severity: "medium", title: "Vague owner" },
        ]);
  });
  // The document was read by the CLI; here the suite carries it inline as the eval's response.
  const raw = await runYaml(
    SUITE.replace("document: { file: docs/prd.md }", "document: { text: 'PRD text' }"),
    { judge },
  );
  // Pretend it came from docs/prd.md, so findings point at the document.
  raw.results[0]!.review!.report.metadata.document = "docs/prd.md";
  report = redactDeep(raw);
});

describe("reviews, comparisons and agreement in every format", () => {
  it("json carries the review, the comparison and the agreement as they are", () => {
    const json = JSON.parse(REPORTERS.json.render(report, { color: false })) as Report;
    expect(json.results[0]!.review!.report.decision.status).toBe("fail");
    expect(json.results[1]!.pairwise!.positionBias.biased).toBe(1);
    expect(json.agreement?.map((a) => a.item)).toEqual(["goal", "risk", "(all criteria)"]);
  });

  it("junit: each finding is a test case, a failure unless informational", () => {
    const xml = REPORTERS.junit.render(report, { color: false });
    expect(XMLValidator.validate(xml)).toBe(true);
    const parsed = new XMLParser({
      ignoreAttributes: false,
      attributeNamePrefix: "@",
      isArray: (n) => n === "testcase",
    }).parse(xml) as {
      testsuites: {
        "@tests": string;
        "@failures": string;
        testsuite: {
          testcase: { "@name": string; failure?: { "@type": string }; "system-out"?: string }[];
        };
      };
    };
    const cases = parsed.testsuites.testsuite.testcase;
    const findingCases = cases.filter((c) => c["@name"].includes("›"));
    expect(findingCases.map((c) => [c["@name"], c.failure?.["@type"] ?? "none"])).toEqual([
      ["prd review › risk-1: No rollback <b>plan</b>", "review.finding.high"],
      ["prd review › risk-2: Vague owner", "review.finding.medium"],
      ["prd review › goal-1: Nice framing", "none"],
    ]);
    // 2 results + 3 findings; the failed review and two failing findings.
    expect(parsed.testsuites["@tests"]).toBe("5");
    expect(parsed.testsuites["@failures"]).toBe("3");
  });

  it("sarif: findings are results at the document, levels from severity", () => {
    const sarif = JSON.parse(REPORTERS.sarif.render(report, { color: false })) as {
      runs: {
        tool: { driver: { rules: { id: string }[] } };
        results: {
          ruleId: string;
          ruleIndex: number;
          level: string;
          locations: { physicalLocation: { artifactLocation: { uri: string } } }[];
        }[];
      }[];
    };
    const run = sarif.runs[0]!;
    const findings = run.results.filter((r) => r.ruleId.startsWith("review/"));
    expect(findings.map((r) => [r.ruleId, r.level])).toEqual([
      ["review/finding-high", "error"],
      ["review/finding-medium", "warning"],
      ["review/finding-info", "note"],
    ]);
    for (const r of findings) {
      expect(run.tool.driver.rules[r.ruleIndex]!.id).toBe(r.ruleId);
      expect(r.locations[0]!.physicalLocation.artifactLocation.uri).toBe("docs/prd.md");
    }
  });

  it("gitlab: findings are Code Quality issues with mapped severities and stable fingerprints", () => {
    const issues = JSON.parse(REPORTERS.gitlab.render(report, { color: false })) as {
      check_name: string;
      severity: string;
      fingerprint: string;
      location: { path: string };
    }[];
    const findings = issues.filter((i) => i.check_name.startsWith("review/"));
    expect(findings.map((i) => [i.check_name, i.severity, i.location.path])).toEqual([
      ["review/risk", "critical", "docs/prd.md"],
      ["review/risk", "major", "docs/prd.md"],
      ["review/goal", "info", "docs/prd.md"],
    ]);
    expect(new Set(issues.map((i) => i.fingerprint)).size).toBe(issues.length);
  });

  it("md and html: decision, findings, next steps, position bias and agreement, with judge text escaped", () => {
    const md = REPORTERS.md.render(report, { color: false });
    expect(md).toContain("### Review: prd review");
    expect(md).toContain("Decision: fail (not passed)");
    expect(md).toContain("No rollback &lt;b&gt;plan&lt;/b&gt;");
    expect(md).toContain("### Comparison: v1 vs v2");
    expect(md).toContain("position-biased (first slot)");
    expect(md).toContain("### Judge agreement");
    expect(md).not.toContain("<script>");
    const page = REPORTERS.html.render(report, { color: false });
    expect(page).toContain("<h2>Review: prd review</h2>");
    expect(page).toContain("Position bias: 1 of 1 pairs (100%)");
    expect(page).not.toContain("<b>plan</b>");
    expect(page).not.toContain("<script>alert");
  });
});
