import type { EvalResult } from "../engine/results/report";
import { tidyNumber } from "./tidy-numbers";
import { formatPrevious, judgeReasoningText } from "./format";

// Results as CSV rows (RFC 4180: CRLF line ends, a field quoted when it holds
// a comma, a quote or a line break, quotes doubled), one row per result, shared
// by the csv reporter and the run page's download, which streams the same rows
// page by page. Cells are hostile (names, reasons and prompts come from users
// and models), so a text cell that a spreadsheet would run as a formula
// (starting with = + - @, or a tab or carriage return) is neutralised with a
// leading apostrophe, as OWASP advises for CSV injection.

type Cell = string | number | boolean | null | undefined;

const FORMULA_START = /^[=+\-@\t\r]/;

export function csvCell(value: Cell): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : "";
  const text =
    typeof value === "boolean" ? String(value) : FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) || text !== text.trim() ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvLine(cells: readonly Cell[]): string {
  return `${cells.map(csvCell).join(",")}\r\n`;
}

const FIXED_COLUMNS = [
  "id",
  "eval",
  "name",
  "item",
  "agent",
  "model",
  "prompt_index",
  "prompt",
  "status",
  "vacuous",
  "skip_kind",
  "score",
  "threshold",
  "display",
  "decision",
  "reason",
  "note",
  "reasoning",
  "previous",
  "judge_models",
  "judge_calls",
  "cost_usd",
  "latency_ms",
] as const;

/**
 * The criterion columns of a set of results: every criterion name once, sorted, so that a streamed
 * export can name them before it reads the rows.
 */
export function criterionColumns(results: readonly Pick<EvalResult, "criteria">[]): string[] {
  return [...new Set(results.flatMap((r) => r.criteria.map((c) => c.name)))].sort();
}

export function csvHeader(criteria: readonly string[]): string {
  return csvLine([...FIXED_COLUMNS, ...criteria.map((name) => `criterion: ${name}`)]);
}

/** A category review's decision or a comparison's winner: outcomes that are not a score against a threshold. */
function decisionOf(result: EvalResult): string | undefined {
  return (
    result.review?.report.decision.status ??
    (result.pairwise ? `winner ${result.pairwise.result.overall_winner}` : undefined)
  );
}

export function csvResultLine(result: EvalResult, criteria: readonly string[]): string {
  const score = (value: number | null | undefined) =>
    value === null || value === undefined ? null : tidyNumber(value, "score");
  const byName = new Map(result.criteria.map((c) => [c.name, c]));
  return csvLine([
    result.id,
    result.eval,
    result.name,
    result.cell?.item,
    result.cell?.agent,
    result.cell?.model,
    result.cell?.promptIndex,
    result.cell?.prompt,
    result.status,
    result.vacuous,
    result.skipKind,
    score(result.score),
    score(result.threshold),
    result.display,
    decisionOf(result),
    result.reason,
    result.note,
    judgeReasoningText(result) || undefined,
    formatPrevious(result) || undefined,
    result.judge.models.join(" "),
    result.judgeCalls,
    tidyNumber(result.costUsd),
    result.latencyMs,
    ...criteria.map((name) => score(byName.get(name)?.score)),
  ]);
}
