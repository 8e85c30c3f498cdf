import { selfGradingLines } from "../engine/results/self-grading";
import type { EvalResult, Report } from "../engine/results/report";
import type { RenderOptions, Reporter } from "./reporter";
import { detailLines, type DetailLine } from "./details";
import { displayWidth, fitWidth } from "./display-width";
import { stripControl } from "./escape";
import {
  formatCell,
  formatInt,
  formatJudgeAndGeneration,
  formatResultCost,
  formatUsage,
  formatUsd,
  plural,
} from "./format";
import { STATUS_STYLES, resultLabel, skippedSummaryLabel } from "./status";
import { transcriptLines } from "./transcript-lines";
import { baselineHeadline, deltaMark, formatDelta, notableDeltas } from "./baseline";
import { formatReportCost, savingsLine } from "./savings-lines";
import { trustPretty, type Paint } from "./pretty-trust";
import { renderWhole, type ResultWriter } from "./result-stream";
import {
  MIN_SCALE_COLUMNS,
  scaleColumns,
  thresholdText,
  widenForResult,
  type ScaleColumns,
} from "./pretty-columns";

// The default reporter: one line per result and, only under the results that
// need attention, the facts that explain them, so a green run stays short.
// Reviews, comparisons, agreement and flip rates follow in compact sections
// (pretty-trust.ts), before the summary.

function painter(color: boolean): Paint {
  return color
    ? (code, text) => (code ? `\u001b[${code}m${text}\u001b[0m` : text)
    : (_code, text) => text;
}

const NAME_WIDTH_CAP = 64;
const TAG_WIDTH = Math.max(...Object.values(STATUS_STYLES).map((style) => style.tag.length));

/** Continuation lines of a multi-line text stay under their first line. */
function indent(text: string, prefix: string): string {
  return stripControl(text)
    .split("\n")
    .map((line, index) => (index === 0 ? line : `${prefix}  ${line}`))
    .join("\n");
}

function detailColor(line: DetailLine): string {
  if (line.kind === "criterion") return line.ok === true ? "32" : line.ok === false ? "31" : "2";
  if (line.kind === "gate" || line.kind === "error") return "31";
  return line.kind === "reason" || line.kind === "note" ? "" : "2";
}

function resultLine(
  result: EvalResult,
  paint: Paint,
  widths: { name: number; scale: ScaleColumns },
): string {
  const style = STATUS_STYLES[result.status];
  const head = paint(style.ansi, `${style.symbol} ${style.tag.padEnd(TAG_WIDTH)}`);
  // Cut to the column by display width: a longer name (a matrix cell's) or a wide character would push the columns after it.
  const name = fitWidth(stripControl(result.name).replace(/\n/g, " "), widths.name);
  const graded = result.status === "passed" || result.status === "failed";
  const score = graded ? stripControl(result.display) : "—";
  const threshold = thresholdText(result.thresholdDisplay);
  const columns = [
    head,
    paint("1", name),
    " ".repeat(Math.max(0, widths.scale.score - displayWidth(score))) + score,
    paint(
      "2",
      threshold + " ".repeat(Math.max(0, widths.scale.threshold - displayWidth(threshold))),
    ),
    formatResultCost(result),
  ];
  if (result.status === "passed" && result.vacuous) columns.push(paint("33", "(vacuous pass)"));
  return columns.join("  ");
}

function explanation(result: EvalResult, paint: Paint): string[] {
  const pad = "    ";
  if (result.status === "deferred" || result.status === "skipped") {
    const text = `${resultLabel(result)}: ${result.note ?? result.reason}`;
    return [`${pad}${paint(STATUS_STYLES[result.status].ansi, indent(text, pad))}`];
  }
  if (result.status === "passed" && result.vacuous)
    return [`${pad}${paint("33", indent(`note: ${result.note ?? result.reason}`, pad))}`];
  if (result.status === "passed") return [];
  const lines = detailLines(result, { reasoning: false }).map((line) => {
    const prefix = pad + "  ".repeat(line.depth);
    return `${prefix}${paint(detailColor(line), indent(line.text, prefix))}`;
  });
  const cell = formatCell(result.cell);
  if (cell) lines.push(`${pad}${paint("2", `cell: ${stripControl(cell)}`)}`);
  // A live run that did not pass: what the agent did is the first thing to read.
  for (const line of transcriptLines(result)) lines.push(`${pad}${paint("2", stripControl(line))}`);
  return lines;
}

function footer(report: Report, paint: Paint, cost: string): string[] {
  const s = report.summary;
  const counts = [
    // Every count as the cell count beside it is written (10,000, not 10000).
    paint(STATUS_STYLES.passed.ansi, `${formatInt(s.passed)} passed`) +
      (s.vacuous ? ` (${formatInt(s.vacuous)} vacuous)` : ""),
    paint(s.failed ? STATUS_STYLES.failed.ansi : "", `${formatInt(s.failed)} failed`),
    paint(s.deferred ? STATUS_STYLES.deferred.ansi : "", `${formatInt(s.deferred)} deferred`),
    paint(
      s.judgeErrors ? STATUS_STYLES.judge_error.ansi : "",
      `${formatInt(s.judgeErrors)} judge error${s.judgeErrors === 1 ? "" : "s"}`,
    ),
    paint(
      s.skipped ? STATUS_STYLES.skipped.ansi : "",
      `${formatInt(s.skipped)} ${skippedSummaryLabel(report)}`,
    ),
  ];
  const budget = report.budget ? ` of ${formatUsd(report.budget.maxCostUsd)} budget` : "";
  const saved = savingsLine(s.savings);
  // With generated or live candidates the totals are the judges' and the generation's: said apart too.
  const apart = formatJudgeAndGeneration(s);
  const lines = [
    `${paint("1", `${formatInt(s.total)} cell${s.total === 1 ? "" : "s"}:`)} ${counts.join(", ")}`,
    paint(
      "2",
      apart
        ? `in all: ${formatUsage(s.usage)} · cost ${cost}${budget} · ${(report.durationMs / 1000).toFixed(1)}s`
        : `${plural(s.judgeCalls, "judge call")} · ${formatUsage(s.usage)} · cost ${cost}${budget} · ${(report.durationMs / 1000).toFixed(1)}s`,
    ),
    ...(apart ? [paint("2", apart)] : []),
    ...(saved ? [paint("2", saved)] : []),
    ...selfGradingLines(report.selfGrading).map((w) =>
      paint(STATUS_STYLES.deferred.ansi, stripControl(w)),
    ),
  ];
  const headline = baselineHeadline(report);
  if (headline) {
    lines.push(
      "",
      paint(report.baseline!.regressions ? STATUS_STYLES.failed.ansi : "1", stripControl(headline)),
    );
    for (const d of notableDeltas(report)) {
      const color = d.regressed
        ? STATUS_STYLES.failed.ansi
        : d.newlyPassing
          ? STATUS_STYLES.passed.ansi
          : "2";
      lines.push(
        `  ${paint(color, deltaMark(d).padEnd(14))} ${stripControl(d.name)}  ${formatDelta(d)}`,
      );
    }
  }
  return lines;
}

const nameWidthOfName = (name: string) =>
  Math.min(NAME_WIDTH_CAP, displayWidth(stripControl(name).replace(/\n/g, " ")));
const nameWidthOf = (result: EvalResult) => nameWidthOfName(result.name);

/** The name column for results whose names are known before the run (RunStart's nameWidth). */
export function prettyNameWidth(names: Iterable<string>): number {
  let width = 0;
  for (const name of names) {
    width = Math.max(width, nameWidthOfName(name));
    if (width === NAME_WIDTH_CAP) break; // no name can widen it further
  }
  return width;
}

/**
 * The title first, a line per result as it arrives (and what explains it when it did not
 * pass), then the reviews, comparisons and agreement and the summary (issue 20). The name
 * column is as wide as the widest name when the names are known first (a whole report),
 * else as the widest so far. Only results with a review or comparison are kept, for their
 * sections.
 */
export function prettyWriter(options: RenderOptions): ResultWriter {
  const paint = painter(options.color);
  let nameWidth = 0;
  let scale = { ...MIN_SCALE_COLUMNS };
  let results = 0;
  // Whether a judge call had no price: the cost then reads "unpriced", as formatReportCost's does.
  const priced: EvalResult["calls"] = [];
  const sectioned: EvalResult[] = [];
  return {
    start: (run) => {
      nameWidth = run.nameWidth ?? 0;
      scale = { ...(run.scaleColumns ?? MIN_SCALE_COLUMNS) };
      const title = stripControl(`${run.tool.name} ${run.tool.version} · ${run.suite.file}`);
      const lines = [paint("1", title)];
      if (run.suite.description) lines.push(paint("2", indent(run.suite.description, "")));
      return `${lines.join("\n")}\n\n`;
    },
    result: (result) => {
      nameWidth = Math.max(nameWidth, nameWidthOf(result));
      widenForResult(scale, result);
      results++;
      const unpriced = result.calls.find((c) => c.costUsd === null && !c.reused);
      if (unpriced && priced.length === 0) priced.push(unpriced);
      if (result.review || result.pairwise) sectioned.push(result);
      const lines = [
        resultLine(result, paint, { name: nameWidth, scale }),
        ...explanation(result, paint),
      ];
      return `${lines.join("\n")}\n`;
    },
    end: (head) => {
      const report = { ...head, results: sectioned };
      // Reviews, comparisons, judge agreement and flip rates: what a single score line cannot say.
      const trust = trustPretty(report, paint);
      const cost = formatReportCost({ summary: head.summary, results: [{ calls: priced }] });
      const none = results === 0 ? `${paint("2", "no evals ran")}\n` : "";
      return { after: `${none}${["", ...trust, ...footer(report, paint, cost)].join("\n")}\n` };
    },
  };
}

function renderPretty(report: Report, options: RenderOptions): string {
  const nameWidth = Math.max(0, ...report.results.map(nameWidthOf));
  // From each result's scale and threshold, as a streamed run's are from each eval's: the same bytes.
  const scaled = scaleColumns(report.results.filter((r) => !r.review && !r.pairwise));
  return renderWhole(prettyWriter(options), report, { nameWidth, scaleColumns: scaled });
}

export const prettyReporter: Reporter = {
  name: "pretty",
  extension: "txt",
  description: "text/plain: a per-eval summary for a terminal",
  render: renderPretty,
  stream: prettyWriter,
};
