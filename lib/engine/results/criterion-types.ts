// A result's criteria and judges: each judge's verdict on a criterion, how
// several verdicts became one, a decision tree's steps, each judge's grade of
// the whole rubric. Part of the canonical report (report.ts re-exports them).

/** One judge's answer to one question (a criterion, a tree node, a free-form rubric). */
export interface VerdictRecord {
  /** e.g. "claude-sonnet-4-5", or "claude-sonnet-4-5 #2" for the second juror. */
  judge: string;
  model: string;
  juror: number;
  /** The judge's own score in 0..1 (before a guard inverts it); null on judge_error. */
  score: number | null;
  reasoning: string;
  evidence?: string;
  error?: string;
  /** This judge's own verdict on the criterion, its gates included (criteria rubrics). */
  passed?: boolean | null;
  /** The gates this judge's verdict failed. */
  gates?: CriterionGate[];
  /** Whether this judge's cited evidence occurs in the candidate (only with require_evidence). */
  evidenceFound?: boolean;
}

/**
 * How several judges' verdicts on one criterion became its one verdict: a jury
 * by its consensus, a panel by its aggregate. `score`, `passed` and `gates` of
 * the criterion are this combined verdict; each judge's own is in `verdicts`.
 */
export interface CriterionCombination {
  /** "jury": one model's jurors; "mean" | "median" | "majority": a panel's aggregate over its models. */
  method: "jury" | "mean" | "median" | "majority";
  /** Jurors (a jury) or models (a panel). */
  judges: number;
  /** How many of them passed the criterion. */
  passed: number;
  /** The value the rule compared: the mean, or a median panel's median. */
  aggregate: number;
  /** e.g. "mean of 3 jurors: 0.77, 2 of 3 passed". */
  summary: string;
}

export type CriterionGate = "required_failed" | "guard_triggered" | "evidence_missing";

export interface CriterionResult {
  name: string;
  description: string;
  weight: number;
  required: boolean;
  guard: boolean;
  /** The threshold this criterion is gated at (its own, or the rubric's). */
  threshold: number;
  status: "graded" | "skipped" | "judge_error";
  /** Why a `when:` predicate, or the budget, skipped it. */
  skippedReason?: string;
  /** Effective score in 0..1 (a guard's inverted; 0 when evidence is missing), mean over judges. */
  score: number | null;
  /** The combined verdict, gates included: a failed gate is never a pass. */
  passed: boolean | null;
  /** With several judges: how their verdicts were combined (see `verdicts` for each one's). */
  combined?: CriterionCombination;
  /** The judge's reasoning; empty with several judges, whose reasoning is each in `verdicts`. */
  reasoning: string;
  /** The cited evidence (a single judge; with several, each in `verdicts`). */
  evidence?: string;
  /** Whether the cited evidence really occurs in the candidate (only with require_evidence; with several judges, for enough of them). */
  evidenceFound?: boolean;
  /** The gates the combined verdict failed. */
  gates: CriterionGate[];
  verdicts: VerdictRecord[];
}

export interface TreeStep {
  ask: string;
  answer: "yes" | "no";
  score: number;
  reasoning: string;
}

/** The outcome of one judge (a juror, or a panel model) over the whole rubric. */
export interface JudgeGrade {
  judge: string;
  model: string;
  /** The provider that served the model (model_provider), when models were resolved. */
  provider?: string;
  juror: number;
  score: number | null;
  passed: boolean | null;
  error?: string;
  /** A free-form rubric's verdict: the judge's reasoning, and the span it cited (checked against the candidate). */
  reasoning?: string;
  evidence?: string;
  evidenceFound?: boolean;
  treePath?: TreeStep[];
}
