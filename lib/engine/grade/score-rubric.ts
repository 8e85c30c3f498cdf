import type { Criterion, Rubric } from "../../config/types";
import type { CriterionGate } from "../results/report";
import type { ScoreVerdict } from "../ports/verdict";
import { evidenceOccurs } from "./check-evidence";

// Scoring of one judge's verdicts over one rubric. Pure: verdicts in, score,
// pass and the reasons for it out.

const EPSILON = 1e-9;

export function passesThreshold(input: {
  score: number;
  threshold: number;
  strict: boolean;
}): boolean {
  return input.strict ? input.score >= 1 - EPSILON : input.score >= input.threshold - EPSILON;
}

export interface CriterionVerdict {
  criterion: Criterion;
  /** Set when the criterion's `when:` did not hold: no call was made. */
  skippedReason?: string;
  verdict?: ScoreVerdict;
  error?: string;
}

export interface ScoredCriterion {
  criterion: Criterion;
  threshold: number;
  status: "graded" | "skipped" | "judge_error";
  skippedReason?: string;
  /** The judge's own score (a guard's before inversion). */
  raw: number | null;
  /** The score that enters the aggregate. */
  score: number | null;
  passed: boolean | null;
  gates: CriterionGate[];
  evidenceFound?: boolean;
}

export interface RubricScore {
  score: number | null;
  passed: boolean | null;
  vacuous: boolean;
  /** Human-readable reasons this judge failed the eval whatever the score. */
  gates: string[];
  error?: string;
}

type CriteriaRubric = Extract<Rubric, { kind: "criteria" }>;

function scoreOne(
  item: CriterionVerdict,
  rubric: CriteriaRubric,
  candidate: string,
): ScoredCriterion {
  const { criterion } = item;
  const threshold = criterion.threshold ?? rubric.threshold;
  const base = { criterion, threshold, gates: [] as CriterionGate[] };
  if (item.skippedReason !== undefined)
    return {
      ...base,
      status: "skipped",
      skippedReason: item.skippedReason,
      raw: null,
      score: null,
      passed: null,
    };
  if (!item.verdict)
    return { ...base, status: "judge_error", raw: null, score: null, passed: null };
  const raw = item.verdict.score;
  let score = criterion.guard ? 1 - raw : raw;
  const gates: CriterionGate[] = [];
  let evidenceFound: boolean | undefined;
  if (rubric.requireEvidence) {
    evidenceFound = evidenceOccurs(item.verdict.evidence, candidate);
    if (!evidenceFound) {
      score = 0;
      gates.push("evidence_missing");
    }
  }
  if (criterion.guard && raw >= 0.5) gates.push("guard_triggered");
  const meets = score >= threshold - EPSILON;
  if (criterion.required && !meets && !gates.includes("evidence_missing"))
    gates.push("required_failed");
  // A failed gate is never a pass, whatever the score: a guard that triggered
  // at 0.50 against a threshold of 0.10 still failed.
  const passed = meets && gates.length === 0;
  return { ...base, status: "graded", raw, score, passed, gates, evidenceFound };
}

export function describeGate(gate: CriterionGate, scored: ScoredCriterion): string {
  const name = JSON.stringify(scored.criterion.name);
  switch (gate) {
    case "required_failed":
      return `required criterion ${name} scored ${scored.score?.toFixed(2)}, below its threshold ${scored.threshold.toFixed(2)}`;
    case "guard_triggered":
      return `guard ${name} triggered: the judge found it present (${scored.raw?.toFixed(2)})`;
    case "evidence_missing":
      return `criterion ${name} has no verbatim evidence from the candidate, so it scores 0`;
  }
}

export function scoreCriteria(input: {
  rubric: CriteriaRubric;
  verdicts: CriterionVerdict[];
  candidate: string;
}): {
  result: RubricScore;
  criteria: ScoredCriterion[];
} {
  const { rubric, verdicts, candidate } = input;
  const criteria = verdicts.map((v) => scoreOne(v, rubric, candidate));
  const errors = verdicts
    .filter((v) => v.error !== undefined)
    .map((v) => `${v.criterion.name}: ${v.error}`);
  if (errors.length > 0 || criteria.some((c) => c.status === "judge_error")) {
    return {
      criteria,
      result: {
        score: null,
        passed: null,
        vacuous: false,
        gates: [],
        error: errors.join("; ") || "a verdict is missing",
      },
    };
  }
  const graded = criteria.filter((c) => c.status === "graded");
  if (graded.length === 0)
    return { criteria, result: { score: null, passed: true, vacuous: true, gates: [] } };
  let score: number;
  if (rubric.aggregation === "min") {
    score = Math.min(...graded.map((c) => c.score!));
  } else {
    const totalWeight = graded.reduce((sum, c) => sum + c.criterion.weight, 0);
    score = graded.reduce((sum, c) => sum + c.score! * c.criterion.weight, 0) / totalWeight;
  }
  const gates = graded.flatMap((c) => c.gates.map((g) => describeGate(g, c)));
  const passed =
    gates.length === 0 &&
    passesThreshold({ score, threshold: rubric.threshold, strict: rubric.strict });
  return { criteria, result: { score, passed, vacuous: false, gates } };
}

export function scoreSingle(input: {
  score: number;
  threshold: number;
  strict: boolean;
}): RubricScore {
  return { score: input.score, passed: passesThreshold(input), vacuous: false, gates: [] };
}
