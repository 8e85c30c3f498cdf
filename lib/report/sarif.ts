import { selfGradingLines } from "../engine/results/self-grading";
import type { EvalResult, Report } from "../engine/results/report";
import { RULES, RULE_ORDER, ruleKeyOf } from "./sarif-rules";
import type { Reporter } from "./reporter";
import { oneLine } from "./escape";
import { resultFingerprint, resultPath } from "./fingerprint";
import { formatPrevious, formatUnit, judgeReasoningText } from "./format";
import { resultLabel } from "./status";
import { SARIF_LEVEL, findingText, reviewFindings, type ReportedFinding } from "./findings";
import { renderWhole, type ResultWriter } from "./result-stream";
import type { Severity } from "../engine/results/review-types";

// SARIF 2.1.0 for GitHub code scanning and other SARIF viewers. Only results
// that need attention become SARIF results; a pass is not a finding.

/** SARIF wants a URI reference; encodeURI keeps the slashes of a relative path. */
function artifactUri(path: string): string {
  return encodeURI(path);
}

function sentence(text: string): string {
  const trimmed = text.trim();
  return trimmed === "" || /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

function message(result: EvalResult): string {
  const score =
    result.status === "failed"
      ? ` (score ${result.display}, ${formatUnit(result.score)} < threshold ${formatUnit(result.threshold)})`
      : "";
  const why =
    result.status === "deferred" || result.status === "skipped"
      ? (result.note ?? result.reason)
      : result.reason;
  const gates = result.gates.length ? ` Gates: ${result.gates.join("; ")}.` : "";
  const reasoning = judgeReasoningText(result);
  const previous = result.previous ? ` Previously ${formatPrevious(result)}.` : "";
  return oneLine(
    `${result.name}: ${resultLabel(result)}${score}. ${sentence(why)}${gates}${previous}${reasoning ? ` Judge's reasoning: ${reasoning}` : ""}`,
  );
}

function sarifResult(result: EvalResult, suiteFile: string) {
  const key = ruleKeyOf(result);
  const rule = RULES[key];
  const region = result.location
    ? { region: { startLine: result.location.line, startColumn: result.location.column } }
    : {};
  return {
    ruleId: rule.id,
    ruleIndex: RULE_ORDER.indexOf(key),
    level: rule.level,
    message: { text: message(result) },
    locations: [
      {
        physicalLocation: {
          artifactLocation: { uri: artifactUri(resultPath(result, suiteFile)) },
          ...region,
        },
      },
    ],
    partialFingerprints: { "rubricResult/v1": resultFingerprint(result) },
    properties: {
      evalId: result.id,
      eval: result.eval,
      status: result.status,
      score: result.score,
      display: result.display,
      threshold: result.threshold,
      costUsd: result.costUsd,
      judgeModels: result.judge.models,
      ...(result.cell ? { cell: result.cell } : {}),
    },
  };
}

const FINDING_SEVERITIES: Severity[] = ["critical", "high", "medium", "low", "info"];

/** One rule per finding severity, after the status rules; a finding's level follows its severity. */
function findingRules() {
  return FINDING_SEVERITIES.map((severity) => ({
    id: `review/finding-${severity}`,
    name: `ReviewFinding${severity.charAt(0).toUpperCase()}${severity.slice(1)}`,
    shortDescription: { text: `A ${severity} finding of a category review` },
    fullDescription: {
      text: `A judge reviewing a document against a category rubric raised a ${severity} finding.`,
    },
    defaultConfiguration: { level: SARIF_LEVEL[severity] },
  }));
}

function findingResult(f: ReportedFinding) {
  return {
    ruleId: `review/finding-${f.finding.severity}`,
    ruleIndex: RULE_ORDER.length + FINDING_SEVERITIES.indexOf(f.finding.severity),
    level: SARIF_LEVEL[f.finding.severity],
    message: { text: oneLine(findingText(f)) },
    locations: [
      {
        physicalLocation: {
          artifactLocation: { uri: artifactUri(f.path) },
          ...(f.line !== undefined ? { region: { startLine: f.line } } : {}),
        },
      },
    ],
    partialFingerprints: { "rubricFinding/v1": f.fingerprint },
    properties: {
      evalId: f.result.id,
      eval: f.result.eval,
      findingId: f.finding.id,
      category: f.finding.category,
      severity: f.finding.severity,
    },
  };
}

/** JSON at 2-space indentation, nested `depth` spaces in (the log is written in pieces). */
function nested(value: unknown, depth: number): string {
  return JSON.stringify(value, null, 2).replace(/\n/g, `\n${" ".repeat(depth)}`);
}

/**
 * The log written in pieces (issue 20): the tool and its rules first, each non-passing
 * result as it arrives, then the review findings, the invocation (its end time) and the
 * run's summary, which are known at the end. The same JSON as one document.
 */
export function sarifWriter(): ResultWriter {
  let suiteFile = "";
  let written = 0;
  const findings: ReportedFinding[] = [];
  const item = (value: unknown) => `${written++ === 0 ? "" : ","}\n        ${nested(value, 8)}`;
  return {
    start: (run) => {
      suiteFile = run.suite.file;
      const tool = {
        driver: {
          name: "rubric-studio",
          version: run.tool.version,
          semanticVersion: run.tool.version,
          rules: RULE_ORDER.map((key) => {
            const rule = RULES[key];
            return {
              id: rule.id,
              name: rule.name,
              shortDescription: { text: rule.short },
              fullDescription: { text: rule.full },
              defaultConfiguration: { level: rule.level },
            };
          }).concat(findingRules()),
        },
      };
      return [
        "{",
        `  "$schema": "https://json.schemastore.org/sarif-2.1.0.json",`,
        `  "version": "2.1.0",`,
        `  "runs": [`,
        "    {",
        `      "tool": ${nested(tool, 6)},`,
        `      "results": [`,
      ].join("\n");
    },
    result: (result) => {
      findings.push(...reviewFindings({ results: [result], suite: { file: suiteFile } }));
      return result.status === "passed" ? "" : item(sarifResult(result, suiteFile));
    },
    end: (report) => {
      const rest = findings.map((f) => item(findingResult(f))).join("");
      const invocations = [
        {
          executionSuccessful: true,
          startTimeUtc: report.startedAt,
          endTimeUtc: report.finishedAt,
          ...(report.selfGrading
            ? {
                toolExecutionNotifications: selfGradingLines(report.selfGrading).map((text) => ({
                  level: "warning",
                  message: { text },
                })),
              }
            : {}),
        },
      ];
      const properties = {
        suiteFile: report.suite.file,
        summary: report.summary,
        ...(report.budget ? { budget: report.budget } : {}),
      };
      return {
        after: [
          `${rest}${written > 0 ? "\n      " : ""}],`,
          `      "invocations": ${nested(invocations, 6)},`,
          `      "properties": ${nested(properties, 6)}`,
          "    }",
          "  ]",
          "}",
          "",
        ].join("\n"),
      };
    },
  };
}

export const sarifReporter: Reporter = {
  name: "sarif",
  extension: "sarif",
  description: "application/sarif+json: SARIF 2.1.0 for code scanning",
  render: (report) => renderWhole(sarifWriter(), report),
  stream: sarifWriter,
};
