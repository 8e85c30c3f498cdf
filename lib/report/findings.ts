import { createHash } from "node:crypto";
import path from "node:path";
import type { EvalResult, Report } from "../engine/results/report";
import type { Finding, Severity } from "../engine/results/review-types";
import { resultPath } from "./fingerprint";

// The findings of category reviews, for the formats that list problems one by
// one (JUnit, SARIF, GitLab Code Quality). A finding is about the document,
// so it points at the document's file when the review read one from a file,
// and at the eval in the suite otherwise. Its fingerprint is derived from
// what identifies it (result, category, title, severity), never from wording
// that changes between runs.

export interface ReportedFinding {
  result: EvalResult;
  finding: Finding;
  path: string;
  /** The eval's line in the suite; a document has no line for a finding. */
  line?: number;
  fingerprint: string;
}

export function reviewFindings(report: Pick<Report, "results" | "suite">): ReportedFinding[] {
  return report.results.flatMap((result) => {
    const review = result.review;
    if (!review || (result.status !== "passed" && result.status !== "failed")) return [];
    const suitePath = resultPath(result, report.suite.file);
    const document = review.report.metadata.document;
    const fromFile = document !== "(inline)";
    const target = fromFile
      ? path.posix.join(path.posix.dirname(suitePath), document.replace(/\\/g, "/"))
      : suitePath;
    return review.report.findings.map((finding) => ({
      result,
      finding,
      path: target,
      ...(!fromFile && result.location ? { line: result.location.line } : {}),
      fingerprint: createHash("sha256")
        .update(
          [result.id, finding.category, finding.title.trim().toLowerCase(), finding.severity].join(
            "\u0000",
          ),
        )
        .digest("hex"),
    }));
  });
}

/** One line: "[high] metrics: No latency baseline: add the current p95". */
export function findingText(f: ReportedFinding): string {
  const { finding } = f;
  return `${f.result.name}: [${finding.severity}] ${finding.category}: ${finding.title}: ${finding.description} Recommendation: ${finding.recommendation}`;
}

export const SARIF_LEVEL: Record<Severity, "error" | "warning" | "note"> = {
  critical: "error",
  high: "error",
  medium: "warning",
  low: "note",
  info: "note",
};
export const GITLAB_SEVERITY: Record<
  Severity,
  "blocker" | "critical" | "major" | "minor" | "info"
> = {
  critical: "blocker",
  high: "critical",
  medium: "major",
  low: "minor",
  info: "info",
};
