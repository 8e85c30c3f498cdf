import type { CriterionResult, EvalResult, JudgeGrade } from "../engine/results/report";
import { html, trusted, type SafeHtml } from "./html-template";
import {
  criterionCombination,
  criterionMarks,
  criterionOutcome,
  formatCell,
  formatPrevious,
  formatReference,
  judgeReasonings,
  formatJudgeModels,
  formatLocation,
  formatResultCost,
  formatTreeStep,
  formatUnit,
  formatUsage,
  formatVerdict,
  judgeErrors,
  jurorVerdicts,
  plural,
} from "./format";
import { STATUS_STYLES, isNonPassing, resultLabel } from "./status";
import { transcriptAgent, truncationMarker, type Transcript } from "../engine/results/transcript";
import { savingsDetail } from "./savings-lines";

// One result's section of the HTML report (html.ts): its badge, criteria, judges, tree path,
// candidate (or transcript), facts and reasoning, each text escaped by the `html` template.

export function badge(result: Pick<EvalResult, "status" | "vacuous" | "skipKind">): SafeHtml {
  const vacuous =
    result.status === "passed" && result.vacuous
      ? html` <span class="badge vacuous">vacuous</span>`
      : "";
  // A skip's badge names its cause; a vacuous pass gets its own badge beside it.
  const label =
    result.status === "skipped" ? resultLabel(result) : STATUS_STYLES[result.status].label;
  return html`<span class="badge s-${result.status}">${STATUS_STYLES[result.status].symbol} ${label}</span>${vacuous}`;
}

export function graded(result: EvalResult): boolean {
  return result.status === "passed" || result.status === "failed";
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

export function resultSection(result: EvalResult, index: number): SafeHtml {
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
