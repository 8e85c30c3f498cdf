import { addTokenUsage, type TokenUsage } from "../ports/judge-port";
import type { CriterionResult, EvalResult, JudgeGrade } from "../results/report";
import { reviewScore, SCORE_POINTS } from "./category-result";
import type {
  EvaluationReport,
  JudgeMetadata,
  MultiJudgeResult,
  ReviewOutcome,
} from "../results/review-types";
import { overallDecisionOf } from "./build-evaluation-report";
import { generateNextSteps, generateSummary } from "./next-steps";
import { tokenUsageFromWire } from "../results/token-usage-wire";

// A review the Go package (or `rubric-studio review`) wrote, as one result of
// the canonical report, so that `rubric-studio report FILE` renders it with
// every reporter. The wire format carries no cost, so a result from it costs 0;
// tokens and latency come from its JudgeMetadata.

const NANOSECONDS_PER_MS = 1_000_000;

/** A MultiJudgeResult as a review outcome: its consolidated verdict, in an EvaluationReport of the first judge's shape. */
export function outcomeFromMultiJudge(multi: MultiJudgeResult): ReviewOutcome | undefined {
  const first = multi.evaluations[0];
  if (!first) return undefined;
  const { judge: _judge, ...rest } = first;
  const decision = multi.consolidatedDecision;
  // The first judge's summary and next steps speak of its own verdict: the
  // consolidated ones are written again from the consolidated decision.
  const rerunCommand = rest.nextSteps.rerunCommand;
  const report: EvaluationReport = {
    ...rest,
    categories: multi.aggregatedCategories,
    findings: multi.consolidatedFindings,
    decision,
    overallDecision: overallDecisionOf(decision.status),
    nextSteps: generateNextSteps({
      findings: multi.consolidatedFindings,
      categories: multi.aggregatedCategories,
      ...(rerunCommand !== undefined ? { rerunCommand } : {}),
    }),
    summary: generateSummary(decision),
  };
  return { report, multiJudge: multi };
}

function usageOf(judges: JudgeMetadata[]): TokenUsage {
  return judges
    .map((j) => tokenUsageFromWire(j.tokens_used))
    .reduce(addTokenUsage, { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 });
}

function limitText(n: number): string {
  return n < 0 ? "any" : `≤${n}`;
}

export function resultFromReview(input: {
  outcome: ReviewOutcome;
  id: string;
  name: string;
}): EvalResult {
  const { outcome, id, name } = input;
  const { report } = outcome;
  const evaluations = outcome.multiJudge?.evaluations ?? [report];
  const judgeMetadata = outcome.multiJudge?.judges ?? (report.judge ? [report.judge] : []);
  const criteria: CriterionResult[] = report.categories.map((category) => ({
    name: category.category,
    description: "",
    weight: 1,
    required: false,
    guard: false,
    threshold: 1,
    status: "graded",
    score: SCORE_POINTS[category.score],
    passed: category.score === "pass",
    reasoning: `${category.score}: ${category.reasoning}`,
    ...(category.evidence?.[0] !== undefined ? { evidence: category.evidence[0] } : {}),
    gates: [],
    verdicts: [],
  }));
  const judges: JudgeGrade[] = evaluations.map((evaluation, i) => {
    const meta = evaluation.judge ?? judgeMetadata[i];
    const model = meta?.model ?? "unknown";
    return {
      judge: meta?.judge_id ?? model,
      model,
      ...(meta?.model_provider !== undefined ? { provider: meta.model_provider } : {}),
      juror: 1,
      score: reviewScore(evaluation.categories, []),
      passed: evaluation.decision.passed,
    };
  });
  const limits = report.passCriteria.maxFindingsSeverity;
  const { decision } = report;
  return {
    id,
    name,
    eval: name,
    cell: null,
    status: decision.passed ? "passed" : "failed",
    vacuous: false,
    score: reviewScore(report.categories, []),
    threshold: 1,
    scale: { kind: "unit" },
    display: decision.status,
    // Without maxFindingsSeverity the file says nothing about finding limits: none are shown.
    thresholdDisplay: limits
      ? `${report.passCriteria.minCategoriesPassing}; critical ${limitText(limits.critical)}, high ${limitText(limits.high)}, medium ${limitText(limits.medium)}`
      : report.passCriteria.minCategoriesPassing,
    reason: `${decision.status}: ${decision.rationale}`,
    rubric: {
      kind: "categories",
      source: {
        type: "inline",
        ...(report.rubricId !== undefined ? { name: report.rubricId } : {}),
      },
    },
    judge: { models: [...new Set(judges.map((j) => j.model))], jurySize: 1, consensus: 1 },
    candidate: { source: "fixed" },
    criteria,
    judges,
    gates: decision.passed ? [] : [decision.rationale],
    usage: usageOf(judgeMetadata),
    costUsd: 0,
    judgeCalls: 0,
    latencyMs: Math.round(
      judgeMetadata.reduce((sum, j) => sum + (j.latency ?? 0), 0) / NANOSECONDS_PER_MS,
    ),
    calls: [],
    review: outcome,
  };
}
