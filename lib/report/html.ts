import { selfGradingLines } from "../engine/results/self-grading";
import type { CriterionResult, EvalResult, JudgeGrade, Report } from "../engine/results/report";
import type { Reporter } from "./reporter";
import { html, trusted, type SafeHtml } from "./html-template";
import {
  criterionCombination,
  criterionMarks,
  criterionOutcome,
  formatCell,
  formatPrevious,
  formatReference,
  judgeReasonings,
  formatInt,
  formatJudgeModels,
  formatLocation,
  formatResultCost,
  formatTreeStep,
  formatUnit,
  formatUsage,
  formatUsd,
  formatVerdict,
  judgeErrors,
  jurorVerdicts,
  plural,
} from "./format";
import { STATUS_STYLES, isNonPassing, resultLabel, skippedSummaryLabel } from "./status";
import { transcriptAgent, truncationMarker, type Transcript } from "../engine/results/transcript";
import { trustHtml } from "./html-trust";
import {
  formatReportCost,
  formatSaving,
  hasSavings,
  savedCell,
  savingsDetail,
  savingsParts,
} from "./savings-lines";

// One self-contained file to attach to a CI run or mail to a colleague: inline
// CSS, no scripts, no external resources. A Content-Security-Policy meta tag
// backs up the escaping: even markup that slipped through could not load or run.

const CSP =
  "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'";

const STYLE = `
:root{color-scheme:light dark;--fg:#1f2328;--muted:#656d76;--bg:#fff;--line:#d0d7de;
--pass:#1a7f37;--fail:#cf222e;--defer:#0969da;--error:#8250df;--skip:#9a6700}
@media (prefers-color-scheme:dark){:root{--fg:#e6edf3;--muted:#8d96a0;--bg:#0d1117;--line:#30363d;
--pass:#3fb950;--fail:#f85149;--defer:#58a6ff;--error:#bc8cff;--skip:#d29922}}
body{font:14px/1.5 system-ui,sans-serif;color:var(--fg);background:var(--bg);margin:2rem auto;
max-width:72rem;padding:0 1rem}
h1{font-size:1.4rem;margin:0}.meta,.muted{color:var(--muted)}
table{border-collapse:collapse;width:100%;margin:.5rem 0}
th,td{border-bottom:1px solid var(--line);padding:.3rem .5rem;text-align:left;vertical-align:top}
td.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
.cards{display:flex;flex-wrap:wrap;gap:.5rem;margin:1rem 0}
.card{border:1px solid var(--line);border-radius:6px;padding:.4rem .8rem}
.card b{display:block;font-size:1.2rem}
.badge{display:inline-block;border-radius:1rem;padding:0 .5rem;font-size:.8rem;font-weight:600;
color:#fff;white-space:nowrap}
.s-passed{background:var(--pass)}.s-failed{background:var(--fail)}.s-deferred{background:var(--defer)}
.s-judge_error{background:var(--error)}.s-skipped{background:var(--skip)}
.vacuous{background:transparent;color:var(--skip);border:1px solid var(--skip)}
details{border:1px solid var(--line);border-radius:6px;margin:.6rem 0;padding:.3rem .8rem}
summary{cursor:pointer;font-weight:600}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.1rem 1rem}dt{color:var(--muted)}dd{margin:0}
pre{white-space:pre-wrap;word-break:break-word;background:rgba(127,127,127,.1);padding:.5rem;border-radius:4px}
.ok{color:var(--pass)}.bad{color:var(--fail)}q{font-style:italic}
`;

function badge(result: Pick<EvalResult, "status" | "vacuous" | "skipKind">): SafeHtml {
  const vacuous =
    result.status === "passed" && result.vacuous
      ? html` <span class="badge vacuous">vacuous</span>`
      : "";
  // A skip's badge names its cause; a vacuous pass gets its own badge beside it.
  const label =
    result.status === "skipped" ? resultLabel(result) : STATUS_STYLES[result.status].label;
  return html`<span class="badge s-${result.status}">${STATUS_STYLES[result.status].symbol} ${label}</span>${vacuous}`;
}

function graded(result: EvalResult): boolean {
  return result.status === "passed" || result.status === "failed";
}

function cards(report: Report): SafeHtml {
  const s = report.summary;
  const items: [string, string][] = [
    [s.total === 1 ? "cell" : "cells", formatInt(s.total)],
    ["passed", `${s.passed}${s.vacuous ? ` (${s.vacuous} vacuous)` : ""}`],
    ["failed", String(s.failed)],
    ["deferred", String(s.deferred)],
    ["judge errors", String(s.judgeErrors)],
    [skippedSummaryLabel(report), String(s.skipped)],
    ["judge calls", formatInt(s.judgeCalls)],
    [
      "cost",
      `${formatReportCost(report)}${report.budget ? ` of ${formatUsd(report.budget.maxCostUsd)}` : ""}`,
    ],
    ...(hasSavings(s.savings)
      ? [["saved", formatSaving(s.savings.total)] as [string, string]]
      : []),
  ];
  return html`<section class="cards">${items.map(
    ([label, value]) => html`<div class="card"><b>${value}</b>${label}</div>`,
  )}</section>
<p class="muted">${formatUsage(s.usage)}</p>${
    hasSavings(s.savings)
      ? html`<p class="muted" id="savings">Saved by ${savingsParts(s.savings).join("; ")}</p>`
      : ""
  }
${selfGradingLines(report.selfGrading).map((w) => html`<p class="bad">${w}</p>`)}`;
}

function summaryTable(report: Report): SafeHtml {
  // A "Saved" column only for a run the caches saved something on.
  const saved = hasSavings(report.summary.savings);
  const rows = report.results.map(
    (r, index) =>
      html`<tr><td>${badge(r)}</td><td><a href="#result-${index + 1}">${r.name}</a></td><td class="num">${
        graded(r) ? r.display : "—"
      }</td><td class="num">${r.thresholdDisplay}</td><td class="num">${formatResultCost(r)}</td>${
        saved ? html`<td class="num">${savedCell(r.savings)}</td>` : ""
      }<td>${r.note ?? r.reason}</td></tr>`,
  );
  return html`<table><thead><tr><th>Status</th><th>Eval</th><th>Score</th><th>Threshold</th><th>Cost</th>${
    saved ? html`<th>Saved</th>` : ""
  }<th>Reason</th></tr></thead><tbody>
${rows}</tbody></table>`;
}

function criteriaTable(criteria: CriterionResult[]): SafeHtml {
  if (criteria.length === 0) return html``;
  const rows = criteria.map((c) => {
    const outcome = criterionOutcome(c);
    const cls = outcome === "pass" ? "ok" : outcome === "fail" ? "bad" : "muted";
    const evidence =
      c.evidence === undefined
        ? ""
        : html`<q>${c.evidence}</q>${
            c.evidenceFound === false
              ? html` <span class="bad">(not found in the candidate)</span>`
              : ""
          }`;
    // Several judges: how they combined, then each one's own verdict with its reasoning and evidence under it.
    const verdicts = jurorVerdicts(c).map(
      (v) =>
        html`<div class="juror"><div class="muted">${formatVerdict(v)}</div>${
          v.reasoning ? html`<div>${v.reasoning}</div>` : ""
        }${
          v.evidence !== undefined
            ? html`<q>${v.evidence}</q>${
                v.evidenceFound === false
                  ? html` <span class="bad">(not found in the candidate)</span>`
                  : ""
              }`
            : ""
        }</div>`,
    );
    const combination = criterionCombination(c);
    const score = c.status === "graded" ? formatUnit(c.score) : "—";
    return html`<tr><td>${c.name}<div class="muted">${c.description}</div></td><td class="${cls}">${
      outcome
    }</td><td class="num">${score}${
      combination ? html`<div class="muted">${combination}</div>` : ""
    }</td><td class="num">${formatUnit(c.threshold)}</td><td>${criterionMarks(c).join(", ")}</td><td>${
      evidence
    }</td><td>${c.reasoning}${verdicts}</td></tr>`;
  });
  return html`<table><thead><tr><th>Criterion</th><th>Outcome</th><th>Score</th><th>Threshold</th><th>Marks</th><th>Evidence</th><th>Reasoning</th></tr></thead><tbody>
${rows}</tbody></table>`;
}

function judgesTable(judges: JudgeGrade[]): SafeHtml {
  if (judges.length === 0) return html``;
  const rows = judges.map(
    (j) =>
      html`<tr><td>${j.judge}</td><td>${j.model}</td><td class="num">${formatUnit(j.score)}</td><td>${
        j.passed === null ? "—" : j.passed ? "pass" : "fail"
      }</td><td>${j.error ?? ""}</td></tr>`,
  );
  return html`<h4>Judges</h4><table><thead><tr><th>Judge</th><th>Model</th><th>Score</th><th>Verdict</th><th>Error</th></tr></thead><tbody>${rows}</tbody></table>`;
}

function treePath(result: EvalResult): SafeHtml {
  if (!result.tree) return html``;
  const leaf = result.tree.leaf;
  return html`<h4>Tree path</h4><ol>${result.tree.path.map(
    (step) => html`<li>${formatTreeStep(step)}<div class="muted">${step.reasoning}</div></li>`,
  )}${
    leaf
      ? html`<li>leaf ${formatUnit(leaf.score)}${leaf.reason ? `: ${leaf.reason}` : ""}</li>`
      : ""
  }</ol>`;
}

/** A live run step by step; every text goes through the escaping template. */
function transcriptSection(t: Transcript): SafeHtml {
  let call = 0;
  const steps = t.entries.map((e) => {
    if (e.kind === "user") return html`<li><b>User</b><pre>${e.text}</pre></li>`;
    if (e.kind === "assistant") return html`<li><b>Assistant</b><pre>${e.text}</pre></li>`;
    if (e.kind === "final") return html`<li><b>Final reply</b><pre>${e.text}</pre></li>`;
    call++;
    const marker =
      e.truncatedFrom === undefined
        ? ""
        : `\n${truncationMarker(e.result.length, e.truncatedFrom)}`;
    return html`<li><b>Tool call ${call}: ${e.name}</b> <span class="muted">${e.durationMs} ms</span><pre>${
      JSON.stringify(e.arguments, null, 2) ?? "{}"
    }</pre><b class="${e.isError ? "bad" : "muted"}">${
      e.isError ? "Error result" : "Result"
    }</b><pre>${e.result}${marker}</pre></li>`;
  });
  return html`<h4>Transcript</h4><p class="muted">server ${t.server} · agent ${transcriptAgent(t)} · ${
    t.turns
  } of ${t.maxTurns} turns</p><ol>${steps}</ol>${
    t.stopNote ? html`<p class="bad">${t.stopNote}</p>` : ""
  }`;
}

function candidate(result: EvalResult): SafeHtml {
  const c = result.candidate;
  if (c.transcript) {
    return html`${transcriptSection(c.transcript)}${
      c.serverStderr ? html`<h4>Server stderr</h4><pre>${c.serverStderr}</pre>` : ""
    }`;
  }
  return html`<h4>Candidate (${c.source}${c.source === "generated" && c.agent ? ` by ${c.agent.model}` : ""}${c.server ? `, server ${c.server}` : ""})</h4>${c.prompt === undefined ? "" : html`<p class="muted">Prompt</p><pre>${c.prompt}</pre>`}${
    c.response === undefined ? "" : html`<p class="muted">Response</p><pre>${c.response}</pre>`
  }${c.serverStderr ? html`<h4>Server stderr</h4><pre>${c.serverStderr}</pre>` : ""}`;
}

function facts(result: EvalResult): SafeHtml {
  const rows: [string, string][] = [
    ["Status", resultLabel(result)],
    [
      "Score",
      !graded(result)
        ? "—"
        : result.display === formatUnit(result.score)
          ? result.display
          : `${result.display} (${formatUnit(result.score)})`,
    ],
    ["Threshold", formatUnit(result.threshold)],
    ["Reason", result.reason],
    ["Note", result.note ?? ""],
    ["Previously", formatPrevious(result)],
    ["Cell", formatCell(result.cell)],
    ["Graded against a reference", formatReference(result)],
    [
      "Rubric",
      `${result.rubric.kind} (${result.rubric.source.type}${
        result.rubric.source.name ? `: ${result.rubric.source.name}` : ""
      })`,
    ],
    [
      "Judge",
      `${formatJudgeModels(result.judge)}; jury ${result.judge.jurySize}, consensus ${
        result.judge.consensus
      }${result.judge.aggregate ? `, ${result.judge.aggregate}` : ""}`,
    ],
    [
      "Usage",
      `${plural(result.judgeCalls, "judge call")} · ${formatUsage(result.usage)} · ${formatResultCost(
        result,
      )} · ${(result.latencyMs / 1000).toFixed(2)}s`,
    ],
    ["Saved", savingsDetail(result.savings) ?? ""],
    ["Location", formatLocation(result)],
  ];
  return html`<dl>${rows
    .filter(([, value]) => value !== "")
    .map(([label, value]) => html`<dt>${label}</dt><dd>${value}</dd>`)}</dl>`;
}

/** A free-form verdict's reasoning and evidence, per judge. */
function reasoningSection(result: EvalResult): SafeHtml {
  const reasonings = judgeReasonings(result);
  if (reasonings.length === 0) return html``;
  return html`<h4>Reasoning</h4>${reasonings.map(
    (r) =>
      html`<div class="juror">${r.judge ? html`<div class="muted">${r.judge}</div>` : ""}<div>${r.reasoning}</div>${
        r.evidence !== undefined
          ? html`<q>${r.evidence}</q>${r.evidenceFound === false ? html` <span class="bad">(not found in the candidate)</span>` : ""}`
          : ""
      }</div>`,
  )}`;
}

function resultSection(result: EvalResult, index: number): SafeHtml {
  const problems = [...result.gates, ...judgeErrors(result).map((e) => `judge error: ${e}`)];
  return html`<details id="result-${index + 1}"${isNonPassing(result.status) ? trusted(" open") : ""}>
<summary>${badge(result)} ${result.name}</summary>
${facts(result)}${
    problems.length
      ? html`<h4>Gates</h4><ul>${problems.map((p) => html`<li class="bad">${p}</li>`)}</ul>`
      : ""
  }
${criteriaTable(result.criteria)}${treePath(result)}${judgesTable(result.judges)}${reasoningSection(result)}
${result.rubric.text === undefined ? "" : html`<h4>Rubric</h4><pre>${result.rubric.text}</pre>`}${candidate(result)}
</details>`;
}

/** A calibration's report has no eval results: no eval cards, table or results heading. */
function calibrationOnly(report: Report): boolean {
  return report.calibration !== undefined && report.results.length === 0;
}

function renderHtml(report: Report): string {
  const evals = !calibrationOnly(report);
  const page = html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${trusted(CSP)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Rubric Studio report: ${report.suite.file}</title>
<style>${trusted(STYLE)}</style>
</head>
<body>
<header><h1>Rubric Studio ${evals ? "report" : "calibration"}</h1>
<p class="meta">${report.suite.file} · ${report.tool.name} ${report.tool.version} · ${
    report.startedAt
  } · ${(report.durationMs / 1000).toFixed(1)}s</p>
${report.suite.description ? html`<p>${report.suite.description}</p>` : ""}</header>
<main>
${
  evals
    ? cards(report)
    : html`<p class="muted">${plural(report.summary.judgeCalls, "judge call")} · ${formatUsage(
        report.summary.usage,
      )} · cost ${formatReportCost(report)}</p>`
}
${evals ? summaryTable(report) : ""}
${trustHtml(report)}
${
  evals
    ? html`<h2>Results</h2>
${report.results.map((result, index) => resultSection(result, index))}`
    : ""
}
</main>
</body>
</html>
`;
  return page.value;
}

export const htmlReporter: Reporter = {
  name: "html",
  extension: "html",
  description: "text/html: one self-contained page with inline CSS and no scripts",
  render: renderHtml,
};
