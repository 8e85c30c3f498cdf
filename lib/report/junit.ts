import { selfGradingLines } from "../engine/results/self-grading";
import type { EvalResult } from "../engine/results/report";
import type { ReportHead } from "../engine/trust/report-totals";
import { renderWhole, type ResultWriter } from "./result-stream";
import type { Reporter } from "./reporter";
import { detailText } from "./details";
import { escapeXml, escapeXmlAttribute, oneLine } from "./escape";
import { formatSeconds } from "./format";
import { resultLabel } from "./status";
import { findingText, reviewFindings, type ReportedFinding } from "./findings";
import { hasSavings } from "./savings-lines";
import { tidyNumber } from "./tidy-numbers";
import type { Saving, Savings } from "../engine/results/savings-types";

// JUnit XML as CI servers read it (Jenkins, GitLab, GitHub test reporters):
// one suite, one testcase per result. A deferred or budget-skipped eval is
// <skipped>, a judge that could not answer is an <error> rather than a
// <failure>, so a flaky judge is not mistaken for a bad candidate.

function attrs(pairs: Record<string, string | number>): string {
  return Object.entries(pairs)
    .map(([key, value]) => ` ${key}="${escapeXmlAttribute(String(value))}"`)
    .join("");
}

function property(name: string, value: string | number): string {
  return `<property${attrs({ name, value })}/>`;
}

/** A saving as a property value: the dollars, or "unpriced" for a part no price covers (never a made-up 0). */
function savingValue(saving: Saving): string | number {
  if (saving.usd === null) return "unpriced";
  const usd = tidyNumber(saving.usd);
  return saving.unpriced ? `${usd} + unpriced` : usd;
}

/**
 * The savings as properties (savings.ts): the prompt cache's reads, writes and net, the judge
 * cache, batches, the total.
 */
function savingsProperties(savings: Savings | undefined): string[] {
  if (!hasSavings(savings)) return [];
  const { promptCache, judgeCache, batch } = savings;
  return [
    property("saved_usd", savingValue(savings.total)),
    property("saved_usd_prompt_cache_reads", savingValue(promptCache.reads)),
    property("saved_usd_prompt_cache_writes", savingValue(promptCache.writes)),
    property("saved_usd_prompt_cache_net", savingValue(promptCache.net)),
    property("saved_usd_judge_cache", savingValue(judgeCache.saved)),
    property("reused_verdicts", judgeCache.calls),
    ...(batch
      ? [
          property("saved_usd_batches", savingValue(batch.saved)),
          property("batched_calls", batch.calls),
        ]
      : []),
  ];
}

function resultProperties(result: EvalResult): string[] {
  const props = [
    property("status", result.status),
    // An ungraded result has no score; an empty or zero value would read as one.
    ...(result.score === null
      ? []
      : [property("score", result.score), property("display", result.display)]),
    property("threshold", result.threshold),
    property("cost_usd", result.costUsd),
    property("judge_calls", result.judgeCalls),
    property("judge_models", result.judge.models.join(",")),
    ...(result.judge.providers
      ? [
          property(
            "judge_providers",
            result.judge.models.map((m) => result.judge.providers![m] ?? "").join(","),
          ),
        ]
      : []),
    ...savingsProperties(result.savings),
  ];
  if (result.vacuous) props.push(property("vacuous", "true"));
  if (result.location)
    props.push(
      property(
        "location",
        `${result.location.file}:${result.location.line}:${result.location.column}`,
      ),
    );
  return props.map((p) => `      ${p}`);
}

function outcomeElement(result: EvalResult): string[] {
  const message = oneLine(result.reason);
  const body = escapeXml(detailText(result, { reasoning: true }));
  switch (result.status) {
    case "failed":
      return [`    <failure${attrs({ message, type: "rubric.failed" })}>${body}</failure>`];
    case "judge_error":
      return [`    <error${attrs({ message, type: "rubric.judge_error" })}>${body}</error>`];
    case "deferred":
    case "skipped":
      return [
        `    <skipped${attrs({ message: oneLine(`${resultLabel(result)}: ${result.note ?? result.reason}`) })}/>`,
      ];
    case "passed":
      return [];
  }
}

function testcase(result: EvalResult): string[] {
  const open = `  <testcase${attrs({ classname: result.eval, name: result.name, time: formatSeconds(result.latencyMs) })}`;
  const lines = [
    `${open}>`,
    "    <properties>",
    ...resultProperties(result),
    "    </properties>",
    ...outcomeElement(result),
  ];
  if (result.status === "passed" && result.vacuous && result.note)
    lines.push(`    <system-out>${escapeXml(result.note)}</system-out>`);
  lines.push("  </testcase>");
  return lines;
}

/** A review finding as its own test case: a failure unless it is informational. */
function findingCase(f: ReportedFinding): string[] {
  const name = `${f.result.name} › ${f.finding.id}: ${f.finding.title}`;
  const body = escapeXml(findingText(f));
  const outcome =
    f.finding.severity === "info"
      ? `    <system-out>${body}</system-out>`
      : `    <failure${attrs({ message: oneLine(`[${f.finding.severity}] ${f.finding.title}`), type: `review.finding.${f.finding.severity}` })}>${body}</failure>`;
  return [
    `  <testcase${attrs({ classname: `${f.result.eval}.findings`, name, time: "0" })}>`,
    outcome,
    "  </testcase>",
  ];
}

/**
 * A testcase per result as it arrives (issue 20); the counts on <testsuites> and <testsuite>
 * and the run's properties are known at the end, so they go `before` the results (the sink
 * keeps the results on disk until then). Review findings, a testcase each, follow the results.
 */
export function junitWriter(): ResultWriter {
  let suiteFile = "";
  const findings: ReportedFinding[] = [];
  const counts = { results: 0, failed: 0, errors: 0, skipped: 0 };
  return {
    start: (run) => {
      suiteFile = run.suite.file;
      return "";
    },
    result: (result) => {
      counts.results++;
      if (result.status === "failed") counts.failed++;
      if (result.status === "judge_error") counts.errors++;
      if (result.status === "deferred" || result.status === "skipped") counts.skipped++;
      findings.push(...reviewFindings({ results: [result], suite: { file: suiteFile } }));
      return `${testcase(result).join("\n")}\n`;
    },
    end: (report) => ({
      before: junitHead(report, {
        tests: counts.results + findings.length,
        failures: counts.failed + findings.filter((f) => f.finding.severity !== "info").length,
        errors: counts.errors,
        skipped: counts.skipped,
        time: formatSeconds(report.durationMs),
      }),
      after: [...findings.flatMap(findingCase), "</testsuite>", "</testsuites>", ""].join("\n"),
    }),
  };
}

function junitHead(report: ReportHead, counts: Record<string, string | number>): string {
  const s = report.summary;
  const suiteProps = [
    property("suite_file", report.suite.file),
    property("tool_version", report.tool.version),
    property("cost_usd", s.costUsd),
    property("judge_calls", s.judgeCalls),
    property("tokens_input", s.usage.input),
    property("tokens_output", s.usage.output),
    property("tokens_cache_read", s.usage.cacheRead),
    property("tokens_cache_write", s.usage.cacheWrite),
    ...savingsProperties(s.savings),
    ...(report.budget
      ? [
          property("budget_max_usd", report.budget.maxCostUsd),
          property("budget_spent_usd", report.budget.spentUsd),
        ]
      : []),
    ...selfGradingLines(report.selfGrading).map((w) => property("warning", w)),
  ];
  return [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<testsuites${attrs({ name: report.tool.name, ...counts })}>`,
    `<testsuite${attrs({ name: report.suite.file, ...counts, timestamp: report.startedAt })}>`,
    "  <properties>",
    ...suiteProps.map((p) => `    ${p}`),
    "  </properties>",
    "",
  ].join("\n");
}

export const junitReporter: Reporter = {
  name: "junit",
  extension: "xml",
  description: "application/xml: JUnit test results for CI",
  render: (report) => renderWhole(junitWriter(), report),
  stream: junitWriter,
};
