import type { JudgeConfig } from "../../config/types";
import type { CriterionResult, VerdictRecord } from "../results/report";
import type { ScoredCriterion } from "../grade/score-rubric";
import { combineCriterion } from "./combine-criteria";

// The criteria of a result: one combined verdict per criterion (score, pass,
// gates, all on the same combined value) and every judge's own verdict under
// it, each with its own reasoning, score, pass and gates.

export interface JudgeCriteria {
  model: string;
  /** This judge's scored criteria, in rubric order. */
  criteria: ScoredCriterion[];
  /** This judge's verdict records per criterion (none when a `when:` skipped it). */
  verdicts: VerdictRecord[][];
}

function withOwnVerdict(record: VerdictRecord, scored: ScoredCriterion): VerdictRecord {
  if (scored.status !== "graded") return record;
  return {
    ...record,
    passed: scored.passed,
    gates: [...scored.gates],
    ...(scored.evidenceFound !== undefined ? { evidenceFound: scored.evidenceFound } : {}),
  };
}

export function criterionResults(input: {
  runs: JudgeCriteria[];
  judge: JudgeConfig;
}): CriterionResult[] {
  const { runs, judge } = input;
  const first = runs[0];
  if (!first) return [];
  return first.criteria.map((scored, i) => {
    const verdicts = runs.flatMap((r) =>
      (r.verdicts[i] ?? []).map((v) => withOwnVerdict(v, r.criteria[i]!)),
    );
    const combined = combineCriterion({
      votes: runs.map((r) => ({ model: r.model, scored: r.criteria[i]! })),
      judge,
    });
    // One judge: its reasoning and evidence are the criterion's. Several: each stays under its judge.
    const one = verdicts.length === 1 ? verdicts[0] : undefined;
    return {
      name: scored.criterion.name,
      description: scored.criterion.description,
      weight: scored.criterion.weight,
      required: scored.criterion.required,
      guard: scored.criterion.guard,
      threshold: scored.threshold,
      status: combined.status,
      ...(combined.skippedReason !== undefined ? { skippedReason: combined.skippedReason } : {}),
      score: combined.score,
      passed: combined.passed,
      ...(combined.combination ? { combined: combined.combination } : {}),
      reasoning: one?.reasoning ?? "",
      ...(one?.evidence !== undefined ? { evidence: one.evidence } : {}),
      ...(combined.evidenceFound !== undefined ? { evidenceFound: combined.evidenceFound } : {}),
      gates: combined.gates,
      verdicts,
    };
  });
}
