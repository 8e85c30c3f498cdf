import type { JudgeConfig } from "../../config/types";
import { passesThreshold, type RubricScore, type ScoredCriterion } from "../grade/score-rubric";
import {
  CONSENSUS_TOLERANCE,
  combineJuryCriterion,
  describeCombinedGate,
  jurorsNeeded,
  mean,
  median,
} from "./combine-criteria";

// Juries and panels. A jury grades the rubric `size` times with one model and
// passes when at least `consensus` of the jurors pass. A panel grades once per
// model (each model possibly a jury) and combines the per-model outcomes.

export { CONSENSUS_TOLERANCE };

export interface JudgeOutcomeScore extends RubricScore {
  model: string;
  juror: number;
  /** A criteria rubric's per-criterion verdicts of this judge, in rubric order. */
  criteria?: ScoredCriterion[];
  /** A free-form rubric's verdict: why, and the span cited (and whether it occurs in the candidate). */
  reasoning?: string;
  evidence?: string;
  evidenceFound?: boolean;
}

export interface Combined {
  score: number | null;
  passed: boolean | null;
  gates: string[];
  /** Why a jury or panel decided as it did, when there was one. */
  decision?: string;
  error?: string;
}

/** Each criterion as the jury combined it, with the juror's first verdict on it; none for a rubric without criteria. */
function juryCriteria(grades: JudgeOutcomeScore[], consensus: number) {
  const first = grades[0]?.criteria ?? [];
  return first.map((scored, i) => ({
    scored,
    combined: combineJuryCriterion(
      grades.map((g) => g.criteria![i]!),
      consensus,
    ),
  }));
}

function combineJury(grades: JudgeOutcomeScore[], consensus: number): Combined {
  if (grades.length === 1)
    return { score: grades[0]!.score, passed: grades[0]!.passed, gates: grades[0]!.gates };
  const passing = grades.filter((g) => g.passed).length;
  const fraction = passing / grades.length;
  const passed = fraction >= consensus - CONSENSUS_TOLERANCE;
  const scores = grades.map((g) => g.score).filter((s): s is number => s !== null);
  const criteria = grades[0]?.criteria ? juryCriteria(grades, consensus) : undefined;
  // A passing jury overrode its jurors' gates; a failing one names the gates
  // the jury as a whole failed, per criterion, not one juror's.
  const gates = passed
    ? []
    : criteria
      ? criteria.flatMap(({ scored, combined }) =>
          combined.gates.map((gate) => describeCombinedGate(gate, combined, scored)),
        )
      : [...new Set(grades.flatMap((g) => g.gates))];
  // Each criterion is decided by its own votes, the eval by the jurors who
  // passed the whole rubric: when every criterion passed and the eval did not,
  // say so, or the criteria read "passed" under an eval that failed.
  const apart =
    !passed && criteria?.length && criteria.every((c) => c.combined.passed === true)
      ? "; every criterion was passed by enough jurors, but too few jurors passed the rubric as a whole"
      : "";
  return {
    score: scores.length ? mean(scores) : null,
    passed,
    gates,
    decision: `jury: ${passing} of ${grades.length} jurors passed the whole rubric, ${jurorsNeeded(grades.length, consensus)} needed (consensus ${consensus})${apart}`,
  };
}

export function combineJudges(input: {
  grades: JudgeOutcomeScore[];
  judge: JudgeConfig;
  threshold: number;
  strict: boolean;
}): Combined {
  const { grades, judge, threshold, strict } = input;
  const failed = grades.filter((g) => g.error !== undefined);
  if (failed.length > 0) {
    return {
      score: null,
      passed: null,
      gates: [],
      error: failed.map((g) => `${g.model} #${g.juror}: ${g.error}`).join("; "),
    };
  }
  if (grades.every((g) => g.vacuous)) return { score: null, passed: true, gates: [] };

  const models = [...new Set(grades.map((g) => g.model))];
  const perModel = models.map((model) => ({
    model,
    ...combineJury(
      grades.filter((g) => g.model === model),
      judge.jury.consensus,
    ),
  }));
  if (!judge.panel || perModel.length === 1) return perModel[0]!;

  const scores = perModel.map((m) => m.score!);
  const score = mean(scores);
  if (judge.aggregate === "majority") {
    const passes = perModel.filter((m) => m.passed).length;
    const fails = perModel.length - passes;
    const passed = passes === fails ? judge.tieBreak === "pass" : passes > fails;
    const tie = passes === fails ? `; an even split, settled by tie_break: ${judge.tieBreak}` : "";
    return {
      score,
      passed,
      gates: passed ? [] : [...new Set(perModel.flatMap((m) => m.gates))],
      decision: `panel majority: ${passes} of ${perModel.length} models passed${tie}`,
    };
  }
  const aggregated = judge.aggregate === "median" ? median(scores) : score;
  // Hard gates veto: a model whose own verdict failed a required, guard or
  // evidence gate fails the panel, whatever the others scored.
  const gates = [...new Set(perModel.filter((m) => !m.passed).flatMap((m) => m.gates))];
  const meets = passesThreshold({ score: aggregated, threshold, strict });
  const passed = gates.length === 0 && meets;
  // The aggregate, not the reported mean, is what met or missed the bar; say so.
  const comparison = strict
    ? meets
      ? "is a perfect score (strict)"
      : "is short of the perfect 1.00 that strict requires"
    : `${meets ? "≥" : "<"} threshold ${threshold.toFixed(2)}`;
  return {
    score,
    passed,
    gates,
    decision: `panel ${judge.aggregate}: ${aggregated.toFixed(2)} ${comparison} over ${perModel.length} models`,
  };
}
