import type { ScaleColumns } from "./pretty-columns";
import type { EvalResult, Report } from "../engine/results/report";
import type { ReportHead } from "../engine/trust/report-totals";
import { criterionColumns } from "./csv-rows";

// A report written as its run goes (issue 20): what a format writes before the
// first result, one piece per result as it arrives, and what it writes once
// the run's figures are known. The streaming formats (pretty, ndjson, csv,
// junit, tap, sarif) render a whole report through the same writer
// (`renderWhole`), so a streamed file and a rendered one are the same bytes
// for the same results.

/** What is known of a run before its first result. */
export interface RunStart {
  schemaVersion: 1;
  tool: Report["tool"];
  suite: Report["suite"];
  startedAt: string;
  /** Results the run will have (planned cells). */
  total: number;
  maxCostUsd?: number;
  /** The criterion columns (csv): every criterion name of the suite's rubrics, sorted. */
  criteria: string[];
  /** The pretty reporter's name column, when every name is known before the run (else it grows as names come). */
  nameWidth?: number;
  /** The pretty reporter's score and threshold columns, from every rubric's scale (pretty-columns.ts). */
  scaleColumns?: ScaleColumns;
}

export interface ResultWriter {
  start(run: RunStart): string;
  result(result: EvalResult): string;
  /**
   * Once the run is over. `before` (junit's counts) goes before the results:
   * the sink keeps the results apart (a file on disk, not memory) until then.
   */
  end(report: ReportHead): { before?: string; after: string };
}

/** What is known before a whole report's first result. */
export function startOf(report: Report): RunStart {
  return {
    schemaVersion: report.schemaVersion,
    tool: report.tool,
    suite: report.suite,
    startedAt: report.startedAt,
    total: report.results.length,
    ...(report.budget ? { maxCostUsd: report.budget.maxCostUsd } : {}),
    criteria: criterionColumns(report.results),
  };
}

/** A whole report through a streaming writer: `render` of the streaming formats. */
export function renderWhole(
  writer: ResultWriter,
  report: Report,
  start: Partial<RunStart> = {},
): string {
  const { results, ...head } = report;
  const opening = writer.start({ ...startOf(report), ...start });
  const body = results.map((r) => writer.result(r)).join("");
  const { before, after } = writer.end(head);
  return (before ?? "") + opening + body + after;
}
