import type {
  DocumentConfig,
  ReviewPassCriteria,
  RubricSetConfig,
} from "../../config/category-types";
import type { TokenUsage } from "../ports/judge-port";
import { decideReview } from "./decide-review";
import { tokenUsageToWire } from "./token-usage-wire";
import { generateNextSteps, generateSummary } from "./next-steps";
import type {
  CategoryResult,
  Decision,
  EvaluationReport,
  Finding,
  JudgeMetadata,
  PassCriteria,
  ReportMetadata,
} from "./types";

// Assembles an EvaluationReport the way the Go package's Finalize does:
// decision, overallDecision, next steps with the rerun command, summary.

export const GENERATED_BY = "rubric-studio";

export function passCriteriaWire(criteria: ReviewPassCriteria): PassCriteria {
  const { critical, high, medium, low } = criteria.maxFindings;
  return {
    minCategoriesPassing: String(criteria.minCategoriesPassing),
    maxFindingsSeverity: { critical, high, medium, ...(low !== undefined ? { low } : {}) },
  };
}

export function reportMetadata(input: {
  document: DocumentConfig | undefined;
  generatedAt: string;
  reviewerId?: string;
}): ReportMetadata {
  const doc = input.document;
  return {
    document: doc?.file ?? "(inline)",
    ...(doc?.id !== undefined ? { documentId: doc.id } : {}),
    ...(doc?.title !== undefined ? { documentTitle: doc.title } : {}),
    ...(doc?.version !== undefined ? { documentVersion: doc.version } : {}),
    generatedAt: input.generatedAt,
    generatedBy: GENERATED_BY,
    ...(input.reviewerId !== undefined ? { reviewerId: input.reviewerId } : {}),
  };
}

export function judgeMetadata(input: {
  judgeId: string;
  model: string;
  /** The resolved provider; anthropic when the caller resolved none. */
  provider?: string;
  templateVersion: string;
  maxTokens: number;
  rubric: RubricSetConfig;
  evaluatedAt: string;
  latencyMs: number;
  usage: TokenUsage;
}): JudgeMetadata {
  return {
    judge_id: input.judgeId,
    model: input.model,
    model_provider: input.provider ?? "anthropic",
    prompt_template: "rubric-studio review",
    prompt_version: input.templateVersion,
    max_tokens: input.maxTokens,
    rubric_id: input.rubric.id,
    rubric_version: input.rubric.version,
    evaluated_at: input.evaluatedAt,
    // A Go time.Duration is nanoseconds.
    latency: Math.round(input.latencyMs * 1_000_000),
    tokens_used: tokenUsageToWire(input.usage),
  };
}

export function buildEvaluationReport(input: {
  rubric: RubricSetConfig;
  metadata: ReportMetadata;
  judge?: JudgeMetadata;
  categories: CategoryResult[];
  findings: Finding[];
  rerunCommand?: string;
  /** A decision made elsewhere (multi-judge consolidation); otherwise the Evaluate rules decide. */
  decision?: Decision;
}): EvaluationReport {
  const { rubric, categories, findings } = input;
  const decision =
    input.decision ??
    decideReview({ results: categories, findings, criteria: rubric.passCriteria, rubric });
  return {
    metadata: input.metadata,
    reviewType: rubric.reviewType,
    ...(input.judge ? { judge: input.judge } : {}),
    rubricId: rubric.id,
    rubricVersion: rubric.version,
    categories,
    findings,
    passCriteria: passCriteriaWire(rubric.passCriteria),
    decision,
    overallDecision: decision.status,
    nextSteps: generateNextSteps({
      findings,
      categories,
      ...(input.rerunCommand !== undefined ? { rerunCommand: input.rerunCommand } : {}),
    }),
    summary: generateSummary(decision),
  };
}
