import type {
  DocumentConfig,
  ReviewPassCriteria,
  RubricSetConfig,
} from "../../config/category-types";
import { decideReview } from "./decide-review";
import { generateNextSteps, generateSummary } from "./next-steps";
import type {
  CategoryResult,
  Decision,
  DecisionStatus,
  EvaluationReport,
  Finding,
  JudgeMetadata,
  PassCriteria,
  ReferenceData,
  ReportMetadata,
} from "../results/review-types";

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

/**
 * EvaluationReport.overallDecision, "a simplified pass/conditional/fail
 * status": human_review (judges who could not agree) is neither a pass nor a
 * fail but needs someone before approval, so it reads conditional; the
 * decision itself keeps human_review.
 */
export function overallDecisionOf(status: DecisionStatus): "pass" | "conditional" | "fail" {
  return status === "human_review" ? "conditional" : status;
}

export function buildEvaluationReport(input: {
  rubric: RubricSetConfig;
  metadata: ReportMetadata;
  judge?: JudgeMetadata;
  categories: CategoryResult[];
  findings: Finding[];
  rerunCommand?: string;
  /** The known-good data the document was reviewed against (reference-guided review). */
  reference?: ReferenceData;
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
    ...(input.reference ? { reference: input.reference } : {}),
    categories,
    findings,
    passCriteria: passCriteriaWire(rubric.passCriteria),
    decision,
    overallDecision: overallDecisionOf(decision.status),
    nextSteps: generateNextSteps({
      findings,
      categories,
      ...(input.rerunCommand !== undefined ? { rerunCommand: input.rerunCommand } : {}),
    }),
    summary: generateSummary(decision),
  };
}
