import { selfGradingLines } from "../engine/results/self-grading";
import type { Report } from "../engine/results/report";
import type { Reporter } from "./reporter";
import { html, trusted, type SafeHtml } from "./html-template";
import { formatInt, formatResultCost, formatUsage, formatUsd, plural } from "./format";
import { skippedSummaryLabel } from "./status";
import { trustHtml } from "./html-trust";
import { badge, graded, resultSection } from "./html-result";
import {
  formatReportCost,
  formatSaving,
  hasSavings,
  savedCell,
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
