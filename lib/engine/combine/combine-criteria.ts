import type { JudgeConfig } from "../../config/types";
import type { CriterionCombination, CriterionGate } from "../results/report";
import { describeGate, type ScoredCriterion } from "../grade/score-rubric";

// One verdict per criterion out of several judges' verdicts on it, by the same
// rule that decides the eval: a jury passes a criterion when at least
// `consensus` of its jurors passed it, and a hard gate (required, guard,
// evidence) holds against the jury when fewer than `consensus` jurors cleared
// it. A panel then combines the models' verdicts as it combines their evals.
// So a criterion's gate never fails on an eval that passed: a gate failed by
// the jury means too few jurors passed the whole rubric for the eval to pass.

/** So that 2 of 3 jurors (0.667) meet a consensus written as 0.66 or 0.67. */
export const CONSENSUS_TOLERANCE = 0.005;

export interface CombinedCriterion {
  status: ScoredCriterion["status"];
  skippedReason?: string;
  /** Mean effective score over the judges (a guard's inverted); null unless graded. */
  score: number | null;
  /** Mean of the judges' own scores (a guard's before inversion). */
  raw: number | null;
  passed: boolean | null;
  gates: CriterionGate[];
  evidenceFound?: boolean;
  /** How it was combined; absent for a single judge. */
  combination?: CriterionCombination;
}

export const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

export function median(xs: number[]): number {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

const fixed = (x: number) => x.toFixed(2);

/** How many of `n` jurors must pass for a consensus to be met. */
export function jurorsNeeded(n: number, consensus: number): number {
  return Math.max(0, Math.ceil((consensus - CONSENSUS_TOLERANCE) * n - 1e-9));
}

/** "their mean 0.67 is below 0.70": where the mean stands against the threshold, which did not decide. */
function meanAgainst(input: { mean: number; threshold: number }): string {
  return `their mean ${fixed(input.mean)} ${input.mean >= input.threshold - 1e-9 ? "reaches" : "is below"} ${fixed(input.threshold)}`;
}

function notGraded(
  all: Pick<CombinedCriterion, "status" | "skippedReason">[],
): CombinedCriterion | undefined {
  if (all.every((c) => c.status === "graded")) return undefined;
  const skipped = all.find((c) => c.status === "skipped");
  const status = skipped ? "skipped" : "judge_error";
  return {
    status,
    ...(skipped?.skippedReason !== undefined ? { skippedReason: skipped.skippedReason } : {}),
    score: null,
    raw: null,
    passed: null,
    gates: [],
  };
}

function single(c: ScoredCriterion): CombinedCriterion {
  return {
    status: c.status,
    ...(c.skippedReason !== undefined ? { skippedReason: c.skippedReason } : {}),
    score: c.score,
    raw: c.raw,
    passed: c.passed,
    gates: [...c.gates],
    ...(c.evidenceFound !== undefined ? { evidenceFound: c.evidenceFound } : {}),
  };
}

/** One model's jurors on one criterion. */
export function combineJuryCriterion(
  votes: ScoredCriterion[],
  consensus: number,
): CombinedCriterion {
  if (votes.length === 1) return single(votes[0]!);
  const off = notGraded(votes);
  if (off) return off;
  const n = votes.length;
  const meets = (k: number) => k / n >= consensus - CONSENSUS_TOLERANCE;
  const { criterion } = votes[0]!;
  const passing = votes.filter((v) => v.passed).length;
  const passed = meets(passing);
  const gates: CriterionGate[] = [];
  const withEvidence = votes.filter((v) => v.evidenceFound !== undefined);
  const evidenceFound = withEvidence.length
    ? meets(withEvidence.filter((v) => v.evidenceFound).length)
    : undefined;
  if (evidenceFound === false) gates.push("evidence_missing");
  if (criterion.guard && !meets(votes.filter((v) => !v.gates.includes("guard_triggered")).length))
    gates.push("guard_triggered");
  if (criterion.required && !passed && evidenceFound !== false) gates.push("required_failed");
  const score = mean(votes.map((v) => v.score!));
  return {
    status: "graded",
    score,
    raw: mean(votes.map((v) => v.raw!)),
    passed,
    gates,
    ...(evidenceFound !== undefined ? { evidenceFound } : {}),
    combination: {
      method: "jury",
      judges: n,
      passed: passing,
      aggregate: score,
      // The count decided, not the mean: say so, so that a pass beside a mean under the threshold does not read as a contradiction.
      summary: `${passing} of ${n} jurors passed it, ${jurorsNeeded(n, consensus)} needed; ${meanAgainst({ mean: score, threshold: votes[0]!.threshold })}`,
    },
  };
}

/** The models' (each possibly a jury's) verdicts on one criterion, combined as the panel combines evals. */
export function combinePanelCriterion(input: {
  perModel: CombinedCriterion[];
  criterion: ScoredCriterion;
  judge: JudgeConfig;
}): CombinedCriterion {
  const { perModel, criterion, judge } = input;
  if (perModel.length === 1) return perModel[0]!;
  const off = notGraded(perModel);
  if (off) return off;
  const n = perModel.length;
  const passing = perModel.filter((m) => m.passed).length;
  const score = mean(perModel.map((m) => m.score!));
  const raw = mean(perModel.map((m) => m.raw!));
  const found = perModel.filter((m) => m.evidenceFound !== undefined);
  const evidenceFound = found.length ? found.every((m) => m.evidenceFound) : undefined;
  const common = {
    status: "graded" as const,
    score,
    raw,
    ...(evidenceFound !== undefined ? { evidenceFound } : {}),
  };
  if (judge.aggregate === "majority") {
    const fails = n - passing;
    const passed = passing === fails ? judge.tieBreak === "pass" : passing > fails;
    const gates = passed
      ? []
      : [...new Set(perModel.filter((m) => !m.passed).flatMap((m) => m.gates))];
    const summary = `${passing} of ${n} models passed it (majority${passing === fails ? `, an even split settled by tie_break: ${judge.tieBreak}` : ""}); ${meanAgainst({ mean: score, threshold: criterion.threshold })}`;
    return {
      ...common,
      passed,
      gates,
      combination: {
        method: "majority",
        judges: n,
        passed: passing,
        aggregate: score,
        summary,
      },
    };
  }
  // Hard gates veto, as they do for the eval: a model whose own verdict failed
  // one fails the criterion, whatever the others scored.
  const gates = [...new Set(perModel.flatMap((m) => m.gates))];
  const aggregate = judge.aggregate === "median" ? median(perModel.map((m) => m.score!)) : score;
  // A required criterion is decided by the models' verdicts (the veto), as the eval is; others by the aggregate.
  const passed =
    gates.length === 0 && (criterion.criterion.required || aggregate >= criterion.threshold - 1e-9);
  const method = judge.aggregate === "median" ? "median" : "mean";
  const value =
    judge.aggregate === "median"
      ? `the median of ${n} models ${fixed(aggregate)} (mean ${fixed(score)})`
      : `the mean of ${n} models ${fixed(aggregate)}`;
  const failedBy = `${n - passing} of ${n} models failed it`;
  // Say which rule decided: a model's failed gate (the veto), a required criterion's verdicts, or the aggregate against the threshold.
  const rule =
    gates.length > 0
      ? `${failedBy} (a failed gate vetoes); ${value}`
      : criterion.criterion.required
        ? `required, so decided by the models' verdicts: none failed it; ${value}`
        : `${value} ${aggregate >= criterion.threshold - 1e-9 ? "reaches" : "is below"} ${fixed(criterion.threshold)}; ${passing} of ${n} models passed it`;
  return {
    ...common,
    passed,
    gates,
    combination: {
      method,
      judges: n,
      passed: passing,
      aggregate,
      summary: rule,
    },
  };
}

/** Every judge's verdict on one criterion, grouped by model (jurors within), combined into one. */
export function combineCriterion(input: {
  votes: { model: string; scored: ScoredCriterion }[];
  judge: JudgeConfig;
}): CombinedCriterion {
  const { votes, judge } = input;
  const models = [...new Set(votes.map((v) => v.model))];
  const perModel = models.map((model) =>
    combineJuryCriterion(
      votes.filter((v) => v.model === model).map((v) => v.scored),
      judge.jury.consensus,
    ),
  );
  return combinePanelCriterion({
    perModel,
    criterion: votes[0]!.scored,
    judge,
  });
}

/** The reason a combined gate failed, in words, on the combined value. */
export function describeCombinedGate(
  gate: CriterionGate,
  combined: CombinedCriterion,
  scored: ScoredCriterion,
): string {
  const how = combined.combination;
  if (!how)
    return describeGate(gate, {
      ...scored,
      score: combined.score,
      raw: combined.raw,
    });
  const name = JSON.stringify(scored.criterion.name);
  const who = how.method === "jury" ? "jurors" : "models";
  switch (gate) {
    case "required_failed":
      return `required criterion ${name} failed: ${how.summary}`;
    case "guard_triggered":
      return `guard ${name} triggered: the ${who} found it present (${how.summary}; judged present ${fixed(combined.raw ?? 0)} on average)`;
    case "evidence_missing":
      return `criterion ${name} lacks verbatim evidence from the candidate for too many ${who} (${how.summary})`;
  }
}
