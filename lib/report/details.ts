import type { EvalResult } from "../engine/results/report";
import {
  criterionCombination,
  criterionMarks,
  criterionOutcome,
  formatPrevious,
  formatTreePath,
  formatUnit,
  formatVerdict,
  judgeErrors,
  judgeReasonings,
  jurorVerdicts,
} from "./format";

// Why a result did not pass, as plain lines. The terminal colours them and
// JUnit puts them in a <failure> body; both read the same facts this way.

export type DetailKind =
  "reason" | "note" | "gate" | "error" | "criterion" | "juror" | "evidence" | "reasoning" | "tree";

export interface DetailLine {
  kind: DetailKind;
  /** Nesting under the result: 0 for the result's own facts, 1 under a criterion. */
  depth: 0 | 1;
  text: string;
  /** For criterion lines: whether the criterion passed (null when it was not graded). */
  ok?: boolean | null;
}

export interface DetailOptions {
  /** Include each criterion's reasoning (long; worth it in a CI failure body). */
  reasoning: boolean;
}

const CRITERION_SYMBOL: Record<string, string> = {
  pass: "✓",
  fail: "✗",
  skipped: "-",
  "judge error": "!",
};

export function detailLines(result: EvalResult, options: DetailOptions): DetailLine[] {
  const lines: DetailLine[] = [];
  // A verdict's error is said once, under its criterion; the result's reason
  // and its judge errors that only repeat it are left out.
  const underCriteria = result.criteria.flatMap((c) =>
    c.verdicts.flatMap((v) => (v.error ? [v.error] : [])),
  );
  const repeats = (text: string) => underCriteria.some((error) => text.includes(error));
  // A judge error's reason that is made of the judges' own errors is said by them, each labelled once.
  const judgesSay = (text: string) =>
    repeats(text) ||
    result.judges.some((grade) => grade.error !== undefined && text.includes(grade.error));
  if (result.reason && !(result.status === "judge_error" && judgesSay(result.reason)))
    lines.push({ kind: "reason", depth: 0, text: `reason: ${result.reason}` });
  if (result.note) lines.push({ kind: "note", depth: 0, text: `note: ${result.note}` });
  if (result.previous)
    lines.push({ kind: "note", depth: 0, text: `previously: ${formatPrevious(result)}` });
  for (const gate of result.gates) lines.push({ kind: "gate", depth: 0, text: `gate: ${gate}` });
  // A free-form verdict has no criterion lines: its reasoning is what says why, so it is always shown.
  for (const r of judgeReasonings(result)) {
    const who = r.judge ? ` (${r.judge})` : "";
    lines.push({ kind: "reasoning", depth: 0, text: `reasoning${who}: ${r.reasoning}` });
    if (r.evidence !== undefined)
      lines.push({
        kind: "evidence",
        depth: 0,
        text: `evidence${who}: ${JSON.stringify(r.evidence)}${r.evidenceFound === false ? " (not found in the candidate)" : ""}`,
      });
  }
  for (const error of judgeErrors(result).filter((e) => !repeats(e)))
    lines.push({ kind: "error", depth: 0, text: `judge error: ${error}` });
  for (const criterion of result.criteria) {
    const outcome = criterionOutcome(criterion);
    const marks = criterionMarks(criterion);
    const score =
      criterion.status === "graded"
        ? `${formatUnit(criterion.score)} / ${formatUnit(criterion.threshold)}`
        : "";
    const combination = criterion.status === "graded" ? criterionCombination(criterion) : "";
    const text = [
      `${CRITERION_SYMBOL[outcome] ?? "?"} ${criterion.name}`,
      score,
      combination,
      marks.length ? `[${marks.join(", ")}]` : "",
    ]
      .filter(Boolean)
      .join("  ");
    lines.push({
      kind: "criterion",
      depth: 0,
      text,
      ok: criterion.status === "graded" ? criterion.passed : null,
    });
    if (criterion.evidence !== undefined) {
      const found = criterion.evidenceFound === false ? " (not found in the candidate)" : "";
      lines.push({
        kind: "evidence",
        depth: 1,
        text: `evidence: ${JSON.stringify(criterion.evidence)}${found}`,
      });
    }
    if (options.reasoning && criterion.reasoning)
      lines.push({ kind: "reasoning", depth: 1, text: `reasoning: ${criterion.reasoning}` });
    // One judge: its error under the criterion. Several judges: each one's verdict (and reasoning)
    // under it, never one judge's under the combined score.
    const jurors = jurorVerdicts(criterion);
    for (const verdict of jurors.length ? [] : criterion.verdicts)
      if (verdict.error)
        lines.push({
          kind: "error",
          depth: 1,
          text: `judge error: ${verdict.judge}: ${verdict.error}`,
        });
    for (const verdict of jurors) {
      const evidence =
        verdict.evidence !== undefined
          ? ` · evidence: ${JSON.stringify(verdict.evidence)}${verdict.evidenceFound === false ? " (not found in the candidate)" : ""}`
          : "";
      const why =
        options.reasoning && verdict.reasoning ? ` · reasoning: ${verdict.reasoning}` : "";
      lines.push({ kind: "juror", depth: 1, text: `${formatVerdict(verdict)}${evidence}${why}` });
    }
  }
  const tree = formatTreePath(result);
  if (tree) lines.push({ kind: "tree", depth: 0, text: `tree: ${tree}` });
  return lines;
}

export function detailText(result: EvalResult, options: DetailOptions): string {
  return detailLines(result, options)
    .map((line) => `${"  ".repeat(line.depth)}${line.text}`)
    .join("\n");
}
