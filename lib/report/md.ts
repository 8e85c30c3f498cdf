import { selfGradingLines } from "../engine/results/self-grading";
import type { CriterionResult, EvalResult, Report } from "../engine/results/report";
import type { Reporter } from "./reporter";
import { escapeMarkdown, escapeMarkdownCell, markdownFence } from "./escape";
import {
  criterionCombination,
  criterionMarks,
  criterionOutcome,
  formatCell,
  formatInt,
  formatJudgeModels,
  formatLocation,
  formatResultCost,
  formatTreePath,
  formatUnit,
  formatUsage,
  formatUsd,
  formatVerdict,
  judgeErrors,
  jurorVerdicts,
  plural,
} from "./format";
import { STATUS_STYLES, isNonPassing, resultLabel, skippedSummaryLabel } from "./status";
import { renderTranscript, transcriptAgent } from "../engine/results/transcript";
import { baselineHeadline, deltaMark, formatDelta, notableDeltas } from "./baseline";
import {
  formatReportCost,
  hasSavings,
  savedCell,
  savingsDetail,
  savingsLine,
} from "./savings-lines";
import { trustMarkdown } from "./md-trust";

// GitHub-flavoured Markdown for a pull-request comment or a job summary:
// a table of every result, then a section for each one that needs attention.

const MD_STATUS_ICON: Record<EvalResult["status"], string> = {
  passed: "✅",
  failed: "❌",
  deferred: "⏸️",
  judge_error: "⚠️",
  skipped: "⏭️",
};

function status(result: EvalResult): string {
  return `${MD_STATUS_ICON[result.status]} ${resultLabel(result)}`;
}

function row(cells: string[]): string {
  return `| ${cells.join(" | ")} |`;
}

function table(header: string[], rows: string[][]): string[] {
  return [row(header), row(header.map(() => "---")), ...rows.map(row)];
}

function summaryTable(report: Report): string[] {
  // A "Saved" column only for a run the caches saved something on, so other tables keep their shape.
  const saved = hasSavings(report.summary.savings);
  const rows = report.results.map((r, index) => [
    status(r),
    isNonPassing(r.status)
      ? `[${escapeMarkdownCell(r.name)}](#${anchor(index)})`
      : escapeMarkdownCell(r.name),
    r.status === "passed" || r.status === "failed" ? escapeMarkdownCell(r.display) : "—",
    escapeMarkdownCell(r.thresholdDisplay),
    formatResultCost(r),
    ...(saved ? [savedCell(r.savings)] : []),
    escapeMarkdownCell(r.note ?? r.reason),
  ]);
  return table(
    ["Status", "Eval", "Score", "Threshold", "Cost", ...(saved ? ["Saved"] : []), "Reason"],
    rows,
  );
}

/** Our own anchors, so a link never depends on how GitHub slugs a hostile name. */
function anchor(index: number): string {
  return `result-${index + 1}`;
}

/** Several judges: each one's verdict, evidence and reasoning on its own line, after how they were combined. */
function jurorLines(c: CriterionResult): string {
  const lines = jurorVerdicts(c).map((v) => {
    const evidence =
      v.evidence !== undefined
        ? ` “${v.evidence}”${v.evidenceFound === false ? " (not found)" : ""}`
        : "";
    return `${formatVerdict(v)}${evidence}${v.reasoning ? `: ${v.reasoning}` : ""}`;
  });
  return lines.length
    ? escapeMarkdownCell([criterionCombination(c), ...lines].filter(Boolean).join("\n"))
    : "";
}

function criterionRow(c: CriterionResult): string[] {
  const evidence =
    c.evidence === undefined
      ? ""
      : `“${escapeMarkdownCell(c.evidence)}”${c.evidenceFound === false ? " (not found)" : ""}`;
  return [
    escapeMarkdownCell(c.name),
    criterionOutcome(c),
    c.status === "graded" ? formatUnit(c.score) : "—",
    formatUnit(c.threshold),
    escapeMarkdownCell(criterionMarks(c).join(", ")),
    evidence,
    jurorLines(c) || escapeMarkdownCell(c.reasoning),
  ];
}

function candidateBlock(result: EvalResult): string[] {
  const parts: string[] = [];
  const { transcript, serverStderr } = result.candidate;
  // A live run: the transcript exactly as the judge read it, and the server's stderr when it failed.
  const texts = [
    ["Prompt", transcript ? undefined : result.candidate.prompt],
    ["Response", transcript ? undefined : result.candidate.response],
    [
      transcript
        ? `Transcript (server ${transcript.server}, agent ${transcriptAgent(transcript)}, ${transcript.turns} of ${transcript.maxTurns} turns)`
        : "",
      transcript ? renderTranscript(transcript) : undefined,
    ],
    ["Server stderr", serverStderr],
  ] as const;
  for (const [label, text] of texts) {
    if (text === undefined) continue;
    const fence = markdownFence(text);
    parts.push(`**${escapeMarkdown(label)}**`, "", `${fence}text`, text, fence, "");
  }
  if (parts.length === 0) return [];
  return ["<details><summary>Candidate</summary>", "", ...parts, "</details>", ""];
}

function section(result: EvalResult, index: number): string[] {
  const lines = [
    `<a id="${anchor(index)}"></a>`,
    "",
    `### ${MD_STATUS_ICON[result.status]} ${escapeMarkdown(result.name)}`,
    "",
  ];
  const facts = [
    `**Status:** ${resultLabel(result)}`,
    result.status === "failed"
      ? `**Score:** ${escapeMarkdown(result.display)} (${formatUnit(result.score)}, threshold ${formatUnit(result.threshold)})`
      : "",
    result.reason ? `**Reason:** ${escapeMarkdown(result.reason)}` : "",
    result.note ? `**Note:** ${escapeMarkdown(result.note)}` : "",
    result.cell ? `**Cell:** ${escapeMarkdown(formatCell(result.cell))}` : "",
    result.location ? `**Location:** ${escapeMarkdown(formatLocation(result))}` : "",
    `**Judge:** ${escapeMarkdown(formatJudgeModels(result.judge))} · ${plural(result.judgeCalls, "call")} · ${formatResultCost(result)}`,
    savingsDetail(result.savings) ? `**Saved:** ${savingsDetail(result.savings)}` : "",
  ].filter(Boolean);
  lines.push(...facts.map((fact) => `- ${fact}`), "");
  const gates = [...result.gates, ...judgeErrors(result).map((e) => `judge error: ${e}`)];
  if (gates.length) lines.push("**Gates**", "", ...gates.map((g) => `- ${escapeMarkdown(g)}`), "");
  if (result.criteria.length) {
    lines.push(
      ...table(
        ["Criterion", "Outcome", "Score", "Threshold", "Marks", "Evidence", "Reasoning"],
        result.criteria.map(criterionRow),
      ),
      "",
    );
  }
  const tree = formatTreePath(result);
  if (tree) lines.push(`**Tree path:** ${escapeMarkdown(tree)}`, "");
  lines.push(...candidateBlock(result));
  return lines;
}

function baselineSection(report: Report): string[] {
  const headline = baselineHeadline(report);
  if (!headline) return [];
  const rows = notableDeltas(report).map((d) => [
    escapeMarkdownCell(deltaMark(d)),
    escapeMarkdownCell(d.name),
    escapeMarkdownCell(formatDelta(d)),
  ]);
  return [
    `**${escapeMarkdown(headline)}**`,
    "",
    ...(rows.length ? [...table(["Change", "Eval", "Score"], rows), ""] : []),
  ];
}

function renderMarkdown(report: Report): string {
  const s = report.summary;
  // A calibration's report has no eval results: its own heading, no eval counts or table.
  if (report.calibration && report.results.length === 0) {
    return [
      `## Rubric Studio calibration: ${escapeMarkdown(report.suite.file)}`,
      "",
      `${plural(s.judgeCalls, "judge call")} · ${formatUsage(s.usage)} · cost ${formatUsd(s.costUsd)}`,
      "",
      ...trustMarkdown(report),
      `<sub>${escapeMarkdown(report.tool.name)} ${escapeMarkdown(report.tool.version)} · ${escapeMarkdown(report.finishedAt)}</sub>`,
      "",
    ].join("\n");
  }
  const counts = [
    `${STATUS_STYLES.passed.label} ${s.passed}${s.vacuous ? ` (${s.vacuous} vacuous)` : ""}`,
    `${STATUS_STYLES.failed.label} ${s.failed}`,
    `${STATUS_STYLES.deferred.label} ${s.deferred}`,
    `${STATUS_STYLES.judge_error.label} ${s.judgeErrors}`,
    `${skippedSummaryLabel(report)} ${s.skipped}`,
  ];
  const lines = [
    `## Rubric Studio: ${escapeMarkdown(report.suite.file)}`,
    "",
    ...(report.suite.description ? [escapeMarkdown(report.suite.description), ""] : []),
    `**${plural(s.total, "cell")}:** ${counts.join(" · ")}`,
    "",
    `${plural(s.judgeCalls, "judge call")} · ${formatUsage(s.usage)} · cost ${formatReportCost(report)}` +
      (report.budget ? ` of ${formatUsd(report.budget.maxCostUsd)} budget` : "") +
      (savingsLine(s.savings) ? ` · ${savingsLine(s.savings)}` : ""),
    "",
    ...baselineSection(report),
    ...selfGradingLines(report.selfGrading).flatMap((w) => [`> **${escapeMarkdown(w)}**`, ""]),
    ...summaryTable(report),
    "",
    ...trustMarkdown(report),
  ];
  report.results.forEach((result, index) => {
    if (isNonPassing(result.status)) lines.push(...section(result, index));
  });
  lines.push(
    `<sub>${escapeMarkdown(report.tool.name)} ${escapeMarkdown(report.tool.version)} · ${escapeMarkdown(report.finishedAt)}</sub>`,
    "",
  );
  return lines.join("\n");
}

export const mdReporter: Reporter = {
  name: "md",
  extension: "md",
  description: "text/markdown: GitHub-flavoured summary for a pull request or job summary",
  render: renderMarkdown,
};
