import { selfGradingLines } from "../engine/results/self-grading";
import type { EvalResult, EvalStatus, Report } from "../engine/results/report";
import type { Reporter } from "./reporter";
import { oneLine } from "./escape";
import { resultFingerprint, resultPath } from "./fingerprint";
import { formatPrevious, formatUnit, judgeReasoningText } from "./format";
import { resultLabel } from "./status";
import { GITLAB_SEVERITY, findingText, reviewFindings } from "./findings";

// GitLab Code Quality (the CodeClimate subset GitLab reads) so that failing
// evals show in the merge-request widget. Passes are not issues.

type Severity = "blocker" | "critical" | "major" | "minor" | "info";

// A failed eval is the gate tripping; a judge error means the gate could not
// be evaluated, which is serious but says nothing about the candidate.
const SEVERITY: Record<Exclude<EvalStatus, "passed">, Severity> = {
  failed: "critical",
  judge_error: "major",
  skipped: "minor",
  deferred: "info",
};

const CHECK_NAME: Record<Exclude<EvalStatus, "passed">, string> = {
  failed: "rubric/failed",
  judge_error: "rubric/judge-error",
  skipped: "rubric/skipped",
  deferred: "rubric/deferred",
};

function description(result: EvalResult): string {
  const score =
    result.status === "failed"
      ? ` (${result.display}, threshold ${formatUnit(result.threshold)})`
      : "";
  const why =
    result.status === "deferred" || result.status === "skipped"
      ? (result.note ?? result.reason)
      : result.reason;
  const reasoning = judgeReasoningText(result);
  return oneLine(
    `${result.name}: ${resultLabel(result)}${score}: ${why}${result.previous ? ` (previously ${formatPrevious(result)})` : ""}${reasoning ? `; judge's reasoning: ${reasoning}` : ""}`,
  );
}

function renderGitlab(report: Report): string {
  const issues = report.results
    .filter((r) => r.status !== "passed")
    .map((r) => {
      const status = r.status as Exclude<EvalStatus, "passed">;
      return {
        type: "issue",
        description: description(r),
        // A skip's check names its cause: rubric/skipped-budget, -cancelled, -interrupted.
        check_name:
          status === "skipped" && r.skipKind
            ? `${CHECK_NAME.skipped}-${r.skipKind}`
            : CHECK_NAME[status],
        categories: ["Bug Risk"],
        fingerprint: resultFingerprint(r),
        severity: SEVERITY[status],
        location: {
          path: resultPath(r, report.suite.file),
          lines: { begin: r.location?.line ?? 1 },
        },
      };
    });
  // Every review finding is an issue of its own, at the document it is about.
  const findings = reviewFindings(report).map((f) => ({
    type: "issue",
    description: oneLine(findingText(f)),
    check_name: `review/${f.finding.category}`,
    categories: ["Bug Risk"],
    fingerprint: f.fingerprint,
    severity: GITLAB_SEVERITY[f.finding.severity],
    location: { path: f.path, lines: { begin: f.line ?? 1 } },
  }));
  // A judge grading its own family's agent: one minor issue per pair, at the suite file.
  const warnings = (report.selfGrading ?? []).map((w) => ({
    type: "issue",
    description: oneLine(selfGradingLines([w])[0]!),
    check_name: "rubric/self-grading",
    categories: ["Bug Risk"],
    fingerprint: resultFingerprint({
      id: `${w.judge}\u0000${w.agent}`,
      status: "self-grading" as EvalStatus,
    }),
    severity: "minor",
    location: { path: report.suite.file, lines: { begin: 1 } },
  }));
  return `${JSON.stringify([...issues, ...findings, ...warnings], null, 2)}\n`;
}

export const gitlabReporter: Reporter = {
  name: "gitlab",
  extension: "json",
  description: "application/json: GitLab Code Quality report",
  render: renderGitlab,
};
