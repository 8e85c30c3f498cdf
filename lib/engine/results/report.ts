import type { JudgeConfig, Scale, SourceLocation, RubricSource } from "../../config/types";
import type { JudgeCallRecord, TokenUsage } from "../ports/judge-port";
import type { AgentCallRecord } from "../ports/live-port";
import type { Transcript } from "./transcript";
import type { ReviewOutcome } from "./review-types";
import type { PairwiseOutcome } from "./pairwise-types";
import type { CalibrationResult, JudgeAgreement, RepeatSummary } from "./trust";
import type { SkipKind, SkippedBy } from "./skip-kind";
import type { Savings } from "./savings-types";
import type { EvalStatus, OutcomeCounts } from "./eval-status";
import type { CriterionResult, JudgeGrade, TreeStep } from "./criterion-types";
import type { BaselineComparison } from "./baseline-types";

// The canonical report: one object that every reporter renders. No reporter
// needs an eval-specific code path; everything a format shows is here. Its
// outcomes, criteria and baseline gate are each in their own file, and
// re-exported here: a reporter imports the report from this one place.

export { EVAL_STATUSES } from "./eval-status";
export type { EvalStatus, OutcomeCounts };
export type {
  VerdictRecord,
  CriterionCombination,
  CriterionGate,
  CriterionResult,
  TreeStep,
  JudgeGrade,
} from "./criterion-types";
export type { BaselineDelta, BaselineComparison, RunsCompared } from "./baseline-types";

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
  /**
   * A matrix or dataset cell's place among its eval's cells as planned (1-based: dataset items in
   * their order, then agents, judge models and prompts as the matrix lists them). Stored runs are
   * listed by it, so the run page and the exports keep the order the CLI printed.
   */
  cellIndex?: number;
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
    /** A deferred result's criteria (what would have been graded); a graded result's are its `criteria` rows. */
    criteria?: { name: string; description: string }[];
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
