import type {
  CellCoordinates,
  CriterionGate,
  CriterionResult,
  EvalResult,
  TreeStep,
  VerdictRecord,
} from "../engine/results/report";
import type { TokenUsage } from "../engine/ports/judge-port";
import { formatCount } from "../config/limits";

import { formatUsd, plural } from "../engine/results/format-score";

export { plural };

// Number and phrase formatting for the human formats. Machine formats (json,
// ndjson, sarif properties) carry the raw numbers instead.

/** A 0..1 score or threshold with two decimals; null reads as a dash, never NaN. */
export function formatUnit(value: number | null | undefined): string {
  return value === null || value === undefined || !Number.isFinite(value) ? "—" : value.toFixed(2);
}

/** US dollars: the project's one money format (lib/engine/results/format-score.ts). */
export { formatUsd };

/** Thousands separators fixed to en-US so that output does not depend on the machine's locale. */
export function formatInt(value: number): string {
  return Number.isFinite(value) ? formatCount(value) : Math.round(value).toLocaleString("en-US");
}

/** Seconds with millisecond precision, the unit JUnit expects. */
export function formatSeconds(ms: number): string {
  return (Math.max(0, ms) / 1000).toFixed(3);
}

export function totalTokens(usage: TokenUsage): number {
  return usage.input + usage.output + usage.cacheRead + usage.cacheWrite;
}

export function formatUsage(usage: TokenUsage): string {
  return (
    `${formatInt(totalTokens(usage))} tokens (input ${formatInt(usage.input)}, output ${formatInt(usage.output)}, ` +
    `cache read ${formatInt(usage.cacheRead)}, cache write ${formatInt(usage.cacheWrite)})`
  );
}

/**
 * The judges' and the generation's figures apart, adding up to the summary's: "judges: 12 calls,
 * 3,000 tokens (…), $0.0080 · generation: 6 calls, 1,200 tokens (…), $0.0020". Undefined when no
 * model call made a candidate (then every figure is the judges').
 */
export function formatJudgeAndGeneration(
  summary: Pick<EvalResult, "costUsd" | "usage"> & {
    judgeCalls: number;
    generation?: { calls: number; costUsd: number; usage: TokenUsage };
  },
): string | undefined {
  const g = summary.generation;
  if (!g) return undefined;
  const u = summary.usage;
  const judges: TokenUsage = {
    input: u.input - g.usage.input,
    output: u.output - g.usage.output,
    cacheRead: u.cacheRead - g.usage.cacheRead,
    cacheWrite: u.cacheWrite - g.usage.cacheWrite,
  };
  const judgeUsd = Math.max(0, summary.costUsd - g.costUsd);
  return `judges: ${plural(summary.judgeCalls, "call")}, ${formatUsage(judges)}, ${formatUsd(judgeUsd)} · generation: ${plural(g.calls, "call")}, ${formatUsage(g.usage)}, ${formatUsd(g.costUsd)}`;
}

export function formatCell(cell: CellCoordinates | null): string {
  if (!cell) return "";
  const parts: string[] = [];
  if (cell.item !== undefined) parts.push(`item ${cell.item}`);
  if (cell.agent !== undefined) parts.push(`agent ${cell.agent}`);
  if (cell.model !== undefined) parts.push(`model ${cell.model}`);
  if (cell.promptIndex !== undefined) parts.push(`prompt #${cell.promptIndex}`);
  else if (cell.prompt !== undefined) parts.push(`prompt ${JSON.stringify(cell.prompt)}`);
  return parts.join(", ");
}

export interface JudgeReasoning {
  /** "" with one judge; the judge's label with several. */
  judge: string;
  reasoning: string;
  evidence?: string;
  evidenceFound?: boolean;
}

/** A free-form verdict's reasoning (and cited evidence), one entry per judge that gave one. */
export function judgeReasonings(result: Pick<EvalResult, "judges">): JudgeReasoning[] {
  const given = result.judges.filter((j) => j.reasoning !== undefined && j.reasoning !== "");
  return given.map((j) => ({
    judge: given.length > 1 ? j.judge : "",
    reasoning: j.reasoning!,
    ...(j.evidence !== undefined ? { evidence: j.evidence, evidenceFound: j.evidenceFound } : {}),
  }));
}

/** The same in one line of text: "reasoning", or "judge A: reasoning | judge B: reasoning"; evidence quoted after. */
export function judgeReasoningText(result: Pick<EvalResult, "judges">): string {
  return judgeReasonings(result)
    .map(
      (r) =>
        `${r.judge ? `${r.judge}: ` : ""}${r.reasoning}${
          r.evidence !== undefined
            ? ` (evidence: ${JSON.stringify(r.evidence)}${r.evidenceFound === false ? ", not found in the candidate" : ""})`
            : ""
        }`,
    )
    .join(" | ");
}

/** A regrade's previous verdict, "passed 0.90" (empty when the result has none). */
export function formatPrevious(result: Pick<EvalResult, "previous">): string {
  const p = result.previous;
  if (!p) return "";
  return `${p.status}${p.score === null ? "" : ` ${formatUnit(p.score)}`}`;
}

/** "2 known-good answers, 1 context passage": what a reference-guided judge was given; empty without a reference. */
export function formatReference(result: Pick<EvalResult, "reference">): string {
  const r = result.reference;
  if (!r) return "";
  return [
    r.expectedOutputs.length ? plural(r.expectedOutputs.length, "known-good answer") : "",
    r.context.length ? plural(r.context.length, "context passage") : "",
  ]
    .filter(Boolean)
    .join(", ");
}

/** Marks that change how a criterion gates: required, guard, missing evidence, skipped. */
export function criterionMarks(criterion: CriterionResult): string[] {
  const marks: string[] = [];
  // A criterion that was not graded held no gate: say so, not a bare "required" a reader takes as passed.
  const graded = criterion.status === "graded";
  if (criterion.required)
    marks.push(
      !graded
        ? "required (not graded)"
        : criterion.gates.includes("required_failed")
          ? "required (failed)"
          : "required",
    );
  if (criterion.guard)
    marks.push(
      !graded
        ? "guard (not graded)"
        : criterion.gates.includes("guard_triggered")
          ? "guard (triggered)"
          : "guard",
    );
  if (criterion.gates.includes("evidence_missing") || criterion.evidenceFound === false)
    marks.push("evidence missing");
  if (criterion.status === "skipped")
    marks.push(criterion.skippedReason ? `skipped: ${criterion.skippedReason}` : "skipped");
  if (criterion.status === "judge_error") marks.push("judge error");
  return marks;
}

/** "pass", "fail", "skipped" or "judge error" for one criterion. */
export function criterionOutcome(criterion: CriterionResult): string {
  if (criterion.status === "skipped") return "skipped";
  if (criterion.status === "judge_error") return "judge error";
  return criterion.passed ? "pass" : "fail";
}

const GATE_WORDS: Record<CriterionGate, string> = {
  required_failed: "required failed",
  guard_triggered: "guard triggered",
  evidence_missing: "evidence missing",
};

/**
 * How several judges' verdicts became the criterion's, e.g. "mean of 3 jurors: 0.77, 2 of 3
 * passed"; "" for one judge.
 */
export function criterionCombination(criterion: CriterionResult): string {
  return criterion.combined?.summary ?? "";
}

/**
 * One judge's own verdict on a criterion, for the criteria of a jury or panel:
 * "claude-sonnet-4-5 #3: 0.50 fail (required failed)". The score is the
 * judge's own (a guard's before inversion).
 */
export function formatVerdict(verdict: VerdictRecord): string {
  if (verdict.error) return `${verdict.judge}: error: ${verdict.error}`;
  const outcome = verdict.passed === true ? " pass" : verdict.passed === false ? " fail" : "";
  const gates = verdict.gates?.length
    ? ` (${verdict.gates.map((g) => GATE_WORDS[g]).join(", ")})`
    : "";
  return `${verdict.judge}: ${formatUnit(verdict.score)}${outcome}${gates}`;
}

/**
 * The judges whose verdicts a criterion shows one by one: several judges only (one judge's
 * reasoning is the criterion's).
 */
export function jurorVerdicts(criterion: CriterionResult): VerdictRecord[] {
  return criterion.verdicts.length > 1 ? criterion.verdicts : [];
}

export function formatTreeStep(step: TreeStep): string {
  return `${step.ask} → ${step.answer} (${formatUnit(step.score)})`;
}

export function formatTreePath(result: EvalResult): string {
  if (!result.tree) return "";
  const steps = result.tree.path.map(formatTreeStep);
  const leaf = result.tree.leaf;
  if (leaf) steps.push(`leaf ${formatUnit(leaf.score)}${leaf.reason ? `: ${leaf.reason}` : ""}`);
  return steps.join(" ⇒ ");
}

/** Errors reported by jurors, panel models or individual verdicts, without repeats. */
export function judgeErrors(result: EvalResult): string[] {
  const errors = new Set<string>();
  for (const grade of result.judges) if (grade.error) errors.add(`${grade.judge}: ${grade.error}`);
  for (const criterion of result.criteria)
    for (const verdict of criterion.verdicts)
      if (verdict.error) errors.add(`${verdict.judge}: ${verdict.error}`);
  return [...errors];
}

export function formatLocation(result: EvalResult): string {
  const at = result.location;
  return at ? `${at.file}:${at.line}:${at.column}` : "";
}

/** A result's cost; calls of a model with no known price read "unpriced", never as free. */
export function formatResultCost(
  result: Pick<EvalResult, "costUsd" | "calls"> & {
    candidate?: Pick<EvalResult["candidate"], "agent">;
  },
): string {
  // A live run's agent calls are part of the cost: a local agent model is unpriced too.
  const unpriced =
    result.calls.some((c) => c.costUsd === null && !c.reused) ||
    (result.candidate?.agent?.calls.some((c) => c.costUsd === null) ?? false);
  if (!unpriced) return formatUsd(result.costUsd);
  return result.costUsd > 0 ? `${formatUsd(result.costUsd)} + unpriced` : "unpriced";
}

/**
 * The judge models, each with its provider when models were resolved: "claude-haiku-4-5
 * (anthropic), local:qwen3-8b (local)".
 */
export function formatJudgeModels(judge: EvalResult["judge"]): string {
  return judge.models
    .map((m) => (judge.providers?.[m] ? `${m} (${judge.providers[m]})` : m))
    .join(", ");
}
