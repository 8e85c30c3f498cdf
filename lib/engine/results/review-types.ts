import type { ScoreValue, Severity } from "../../config/category-types";

// The Go package's report types (spec 004, v0.4.0), field for field. Their
// JSON names are a wire format: report types are camelCase, JudgeMetadata and
// TokenUsage snake_case, latency a Go duration in nanoseconds. These objects
// are what `rubric-studio review` writes and what the canonical report embeds;
// wire-json.ts adds Go's omitempty rules and key order.

export type { ScoreValue, Severity };
export type DecisionStatus = "pass" | "conditional" | "fail" | "human_review";
export type AggregationMethod = "majority" | "conservative" | "optimistic" | "unanimous";

export interface Finding {
  id: string;
  category: string;
  severity: Severity;
  title: string;
  description: string;
  recommendation: string;
  evidence?: string;
  owner?: string;
  effort?: string;
}

export interface ChecklistResults {
  requiredPresent?: string[];
  requiredMissing?: string[];
  optionalPresent?: string[];
  optionalMissing?: string[];
}

export interface CategoryResult {
  category: string;
  score: ScoreValue;
  reasoning: string;
  evidence?: string[];
  findings?: Finding[];
  checklistResults?: ChecklistResults;
}

export interface FindingCounts {
  critical: number;
  high: number;
  medium: number;
  low: number;
  info: number;
  total: number;
}

export interface CategoryResultCounts {
  pass: number;
  partial: number;
  fail: number;
  total: number;
}

export interface Decision {
  status: DecisionStatus;
  passed: boolean;
  rationale: string;
  findingCounts: FindingCounts;
  categoryCounts: CategoryResultCounts;
}

export interface FindingLimitsWire {
  critical: number;
  high: number;
  medium: number;
  low?: number;
}

export interface PassCriteria {
  /** "all", "all_required", or a number written as a string ("3"). */
  minCategoriesPassing: string;
  maxFindingsSeverity?: FindingLimitsWire;
}

export interface ActionItem {
  action: string;
  category?: string;
  severity?: Severity;
  owner?: string;
  effort?: string;
}

export interface NextSteps {
  rerunCommand?: string;
  immediate?: ActionItem[];
  recommended?: ActionItem[];
}

export interface ReportMetadata {
  document: string;
  documentId?: string;
  documentTitle?: string;
  documentVersion?: string;
  /** RFC 3339, as Go's time.Time marshals. */
  generatedAt: string;
  generatedBy?: string;
  reviewerId?: string;
}

export interface TokenUsageWire {
  input_tokens: number;
  output_tokens: number;
  total_tokens: number;
  cache_read_tokens?: number;
  cache_write_tokens?: number;
}

export interface JudgeMetadata {
  judge_id?: string;
  model: string;
  model_provider?: string;
  model_version?: string;
  prompt_template?: string;
  prompt_version?: string;
  system_prompt?: string;
  temperature?: number;
  max_tokens?: number;
  rubric_id?: string;
  rubric_version?: string;
  /** RFC 3339; Go writes the zero time when unset (omitempty does not apply to a struct). */
  evaluated_at: string;
  /** A Go time.Duration: nanoseconds. */
  latency?: number;
  tokens_used?: TokenUsageWire;
  trace_id?: string;
  span_id?: string;
}

export interface Annotation {
  name: string;
  score?: number;
  label?: string;
  explanation?: string;
  annotator_id?: string;
  annotator_type?: string;
}

export interface ReferenceData {
  id?: string;
  input?: string;
  expected_output?: string;
  expected_outputs?: string[];
  context?: string[];
  annotations?: Annotation[];
  source?: string;
  tags?: string[];
  metadata?: Record<string, unknown>;
}

export interface EvaluationReport {
  $schema?: string;
  metadata: ReportMetadata;
  reviewType: string;
  judge?: JudgeMetadata;
  rubricId?: string;
  rubricVersion?: string;
  reference?: ReferenceData;
  categories: CategoryResult[];
  findings: Finding[];
  passCriteria: PassCriteria;
  decision: Decision;
  overallDecision: string;
  nextSteps: NextSteps;
  summary: string;
}

export interface JudgeCategoricalScore {
  judgeId: string;
  score: ScoreValue;
}

export interface JudgeDisagreement {
  category: string;
  scores: JudgeCategoricalScore[];
  uniqueScores: number;
}

export interface MultiJudgeResult {
  evaluations: EvaluationReport[];
  judges: JudgeMetadata[];
  aggregatedCategories: CategoryResult[];
  aggregationMethod: AggregationMethod;
  agreement: number;
  disagreements?: JudgeDisagreement[];
  consolidatedDecision: Decision;
  consolidatedFindings: Finding[];
}

/** What the canonical report carries for a category review. */
export interface ReviewOutcome {
  /** The review as one EvaluationReport: a single judge's, or the consolidated one of several. */
  report: EvaluationReport;
  /** Present when several judges (jurors, panel models) reviewed the document. */
  multiJudge?: MultiJudgeResult;
}
