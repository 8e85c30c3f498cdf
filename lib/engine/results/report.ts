import type { JudgeConfig, Scale, SourceLocation, RubricSource } from "../../config/types";
import type { JudgeCallRecord, TokenUsage } from "../ports/judge-port";
import type { AgentCallRecord } from "../ports/live-port";
import type { Transcript } from "./transcript";
import type { ReviewOutcome } from "./review-types";
import type { PairwiseOutcome } from "./pairwise-types";
import type { CalibrationResult, JudgeAgreement, RepeatSummary } from "./trust";
import type { SkipKind, SkippedBy } from "./skip-kind";
import type { Savings } from "./savings-types";

// The canonical report: one object that every reporter renders. No reporter
// needs an eval-specific code path; everything a format shows is here.

export type EvalStatus = "passed" | "failed" | "deferred" | "judge_error" | "skipped";

export const EVAL_STATUSES: EvalStatus[] = [
  "passed",
  "failed",
  "deferred",
  "judge_error",
  "skipped",
];

/** Results per outcome, with the skipped ones per cause where it is known (the dashboard's count cards). */
export type OutcomeCounts = Record<EvalStatus, number> & { skippedBy?: SkippedBy };

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

/** One judge request as it was made: what it cost and how long it took. */
export type JudgeCallSummary = Omit<JudgeCallRecord, "raw"> & { error?: string };

export interface CellCoordinates {
  /** The id of the dataset item this cell grades (an eval with `candidates: { dataset }`). */
  item?: string;
  /** The live agent's model (matrix.agents). */
  agent?: string;
  /** The judge model (matrix.models). */
  model?: string;
  prompt?: string;
  /** 1-based position of the prompt on the matrix's prompts axis. */
  promptIndex?: number;
}

export interface EvalResult {
  /** Stable id: eval name plus cell coordinates. */
  id: string;
  /** Display name: the eval name, with the cell's coordinates for a matrix cell. */
  name: string;
  eval: string;
  cell: CellCoordinates | null;
  status: EvalStatus;
  /** Every criterion was skipped by its `when:` predicate. */
  vacuous: boolean;
  score: number | null;
  threshold: number;
  scale: Scale;
  /** The score in the rubric's scale, e.g. "0.80", "4.0/5", "pass", "B". */
  display: string;
  /** The threshold in the same scale, so the two read side by side. */
  thresholdDisplay: string;
  /** One line: why it passed or failed. */
  reason: string;
  /** Deferral, skip or vacuous-pass note. A skip's note is its detail, without the "skipped (kind)" label. */
  note?: string;
  /** Why a skipped result was not graded: the budget, a cancel request or an interruption. */
  skipKind?: SkipKind;
  rubric: {
    kind: "freeform" | "criteria" | "tree" | "categories" | "pairwise";
    source: RubricSource;
    text?: string;
  };
  judge: {
    models: string[];
    /** Each model's provider (model_provider: anthropic, openai, or one declared under providers:), when resolved. */
    providers?: Record<string, string>;
    jurySize: number;
    consensus: number;
    aggregate?: JudgeConfig["aggregate"];
  };
  /**
   * What was graded. For a live run: `response` is the agent's final reply,
   * `transcript` the whole run (what the judge read), `agent` its model calls,
   * and `serverStderr` the end of the server's stderr when the run failed.
   */
  candidate: {
    /** fixed: a response or dataset item; live: an agent run against a server; generated: a model's answer with no tools (`agent` says which). */
    source: "fixed" | "live" | "generated";
    server?: string;
    prompt?: string;
    response?: string;
    transcript?: Transcript;
    agent?: LiveAgentSummary;
    serverStderr?: string;
  };
  /** A regrade's: this result's score and status in the run it regraded (`regradeOf`). */
  previous?: {
    score: number | null;
    status: EvalStatus;
    /** The criteria whose pass/fail flipped since (`flippedCriteria`), when any did. */
    flippedCriteria?: string[];
  };
  /** The known-good answers and context the judge was given beside a generated or live candidate (reference-guided grading). */
  reference?: { expectedOutputs: string[]; context: string[] };
  criteria: CriterionResult[];
  tree?: { path: TreeStep[]; leaf?: { score: number; reason?: string } };
  judges: JudgeGrade[];
  /** Human-readable reasons the eval failed regardless of its average. */
  gates: string[];
  /** Judge calls plus, for a live run, the agent's model calls. */
  usage: TokenUsage;
  /** Judge calls plus, for a live run, the agent's model calls. */
  costUsd: number;
  judgeCalls: number;
  latencyMs: number;
  /** Every judge request this result made, in the order they finished. */
  calls: JudgeCallSummary[];
  /** What the prompt cache and the judge cache saved on this result's judge calls (savings.ts); set when the report is built. */
  savings?: Savings;
  location?: SourceLocation;
  /** A category rubric's review: the EvaluationReport (and, with several judges, the MultiJudgeResult). */
  review?: ReviewOutcome;
  /** A pairwise eval's comparisons: both orders per pair, win rates, Wilson intervals, position bias. */
  pairwise?: PairwiseOutcome;
}

/** The live agent's model calls for one result. */
export interface LiveAgentSummary {
  model: string;
  /** The provider that ran the agent (anthropic, openai, or one under providers:), when models were resolved. */
  provider?: string;
  turns: number;
  maxTurns: number;
  usage: TokenUsage;
  costUsd: number;
  calls: AgentCallRecord[];
  /** A run shared by several cells (judge models of one matrix): the id of the result whose cost counts it; absent on that result itself. */
  countedIn?: string;
}

export interface ReportSummary {
  total: number;
  passed: number;
  failed: number;
  deferred: number;
  judgeErrors: number;
  skipped: number;
  /** The skipped results per cause, when there are any. */
  skippedBy?: SkippedBy;
  vacuous: number;
  judgeCalls: number;
  /** The judges' and the candidates' generation together (`generation` says the latter's part). */
  costUsd: number;
  usage: TokenUsage;
  /**
   * The model calls that made the candidates (generated answers, live agent runs), when there were
   * any: their part of `costUsd` and `usage`; the rest is the judges'.
   */
  generation?: { calls: number; costUsd: number; usage: TokenUsage };
  /** How many verdicts were taken from the judge cache instead of paid for again; what they saved is `savings.judgeCache`. */
  reused?: { calls: number };
  /** What the prompt cache (reads, writes, net) and the judge cache saved on the run's judge calls, in dollars (savings.ts). */
  savings: Savings;
}

/** A judge that graded the live run of an agent of its own model family (judges favour their own family's outputs). */
export interface SelfGradingWarning {
  judge: string;
  agent: string;
  /** The family both belong to: "Claude", "OpenAI GPT"... */
  family: string;
  /** The first results (eval names with their cells) it concerns, at most SELF_GRADING_NAMES. */
  results: string[];
  /** How many results it concerns (absent in reports written before it: then all are named). */
  count?: number;
  message: string;
}

export interface Report {
  schemaVersion: 1;
  tool: { name: "rubric-studio"; version: string };
  suite: { file: string; description?: string };
  startedAt: string;
  finishedAt: string;
  durationMs: number;
  summary: ReportSummary;
  budget?: { maxCostUsd: number; spentUsd: number };
  /** How far the jurors and panel models of each eval agree, per criterion or category (several judges only). */
  agreement?: JudgeAgreement[];
  /** `eval --repeat N`: how many runs, and per criterion how often pass / fail flipped between them. */
  repeat?: RepeatSummary;
  /** `calibrate`: the judge against the labelled anchors and items, per criterion (its reports carry no eval results). */
  calibration?: CalibrationResult;
  /** The score-delta gate against a baseline run, when one was asked for. */
  baseline?: BaselineComparison;
  /** `regrade`: the stored run whose candidates this run graded again (its results carry `previous`, the flips first). */
  regradeOf?: string;
  /** Judges that graded live runs of their own model family's agents. */
  selfGrading?: SelfGradingWarning[];
  /** The stored run this report belongs to, when run history is on. */
  runId?: string;
  results: EvalResult[];
}

/** The score-delta gate (compare-baseline.ts): each result against the same result of a baseline run. */
export interface BaselineDelta {
  id: string;
  name: string;
  baselineScore: number | null;
  score: number | null;
  /** score - baselineScore; null when either side has no score. */
  delta: number | null;
  baselineStatus: EvalStatus | null;
  status: EvalStatus;
  newlyFailing: boolean;
  newlyPassing: boolean;
  /** Dropped by more than maxDrop, or newly failing. */
  regressed: boolean;
}

export interface BaselineComparison {
  runId: string;
  maxDrop: number;
  deltas: BaselineDelta[];
  regressions: number;
  newlyFailing: number;
  newlyPassing: number;
  /** Results of this run the baseline does not have (new evals or cells). */
  unmatched: number;
}
