import type { ReviewPassCriteria, RubricSetConfig } from "../../config/category-types";
import { billedCalls, sumUsage } from "../ports/judge-port";
import type { CriterionResult, EvalResult } from "../results/report";
import type { PlannedCell } from "../grade/planned-cell";
import { SKIPPED, type CallJudge, type ResultBase } from "../grade/call-judge";
import { aggregationMethodOf } from "./aggregation/registry";
import { buildEvaluationReport, reportMetadata } from "./build-evaluation-report";
import { judgeMetadata } from "../results/judge-metadata";
import { reviewScore, SCORE_POINTS } from "./category-result";
import { aggregateEvaluations, type JudgedReview } from "./multi-judge";
import { REVIEW_TEMPLATE_VERSION } from "./review-prompt";
import { runReviewJudge, type ReviewJudgeRun } from "./run-review-judge";
import type { CategoryResult, ReferenceData, ReviewOutcome } from "../results/review-types";
import type { Reference } from "../grade/build-prompt";

// Grades a cell whose rubric is a category rubric: every judge reviews the
// document, one judge's review is the result, several are aggregated by the
// eval's method (majority by default). The eval passes when the decision
// says passed: pass, or conditional with passed (Go's Decision.Passed).

type CategoriesRubric = { kind: "categories"; rubricSet: RubricSetConfig };

/** A shell-safe rerun of just this review. */
export function rerunCommandFor(input: { suiteFile: string; evalName: string }): string {
  const pattern = `^${input.evalName.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`;
  const quote = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;
  return `rubric-studio review --config ${quote(input.suiteFile)} --filter ${quote(pattern)}`;
}

export function describePassCriteria(criteria: ReviewPassCriteria): string {
  const limit = (n: number) => (n < 0 ? "any" : `≤${n}`);
  const { critical, high, medium } = criteria.maxFindings;
  return `${criteria.minCategoriesPassing}; critical ${limit(critical)}, high ${limit(high)}, medium ${limit(medium)}`;
}

function criterionRows(input: {
  rubric: RubricSetConfig;
  categories: CategoryResult[];
  runs: ReviewJudgeRun[];
}): CriterionResult[] {
  return input.rubric.categories.flatMap((category) => {
    const result = input.categories.find((c) => c.category === category.id);
    if (!result) return [];
    return [
      {
        name: category.name,
        description: category.description,
        weight: category.weight,
        required: category.required,
        guard: false,
        threshold: 1,
        status: "graded" as const,
        score: SCORE_POINTS[result.score],
        passed: result.score === "pass",
        reasoning: `${result.score}: ${result.reasoning}`,
        ...(result.evidence?.[0] !== undefined ? { evidence: result.evidence[0] } : {}),
        gates: [],
        verdicts: input.runs.flatMap((r) => r.verdicts.get(category.id) ?? []),
      },
    ];
  });
}

export async function gradeReviewCell(input: {
  cell: PlannedCell;
  call: CallJudge;
  now: () => number;
  base: ResultBase;
  started: number;
  document: string;
  /** The known-good answers beside a generated or live document, and the prompt it answered. */
  reference?: Reference;
  prompt?: string;
}): Promise<EvalResult> {
  const { cell, call, now, base, started, document, reference } = input;
  const rubric = (cell.eval.rubric as CategoriesRubric).rubricSet;
  const jurorsOf = (model: string) => cell.judges.filter((j) => j.model === model).length;
  const runs = await Promise.all(
    cell.judges.map((judge) =>
      runReviewJudge({
        rubric,
        judge,
        jurors: jurorsOf(judge.model),
        maxTokens: cell.eval.judge.maxTokens,
        document,
        ...(input.prompt !== undefined ? { prompt: input.prompt } : {}),
        ...(reference ? { reference } : {}),
        call,
      }),
    ),
  );
  const calls = runs.flatMap((r) => r.calls);
  const usage = sumUsage(calls);
  const accounting = {
    usage,
    costUsd: calls.reduce((sum, c) => sum + (c.costUsd ?? 0), 0),
    judgeCalls: billedCalls(calls),
    latencyMs: Math.max(0, now() - started),
    calls,
  };
  const common = {
    ...base,
    thresholdDisplay: describePassCriteria(rubric.passCriteria),
    vacuous: false,
    gates: [] as string[],
    ...accounting,
  };
  const judges = (run: ReviewJudgeRun, passed: boolean | null, score: number | null) => ({
    judge: run.judge.label,
    model: run.judge.model,
    ...(run.judge.provider !== undefined ? { provider: run.judge.provider } : {}),
    juror: run.judge.juror,
    score,
    passed,
    ...(run.error !== undefined ? { error: run.error } : {}),
  });

  const skipped = runs.find((r) => r.skipped)?.skipped;
  if (skipped) {
    return {
      ...common,
      ...SKIPPED.eval(skipped),
      criteria: [],
      judges: runs.map((r) => judges(r, null, null)),
    };
  }
  const failed = runs.filter((r) => r.error !== undefined);
  if (failed.length > 0) {
    const reason = `${failed.map((r) => `${r.judge.label}: ${r.error}`).join("; ")}`;
    return {
      ...common,
      status: "judge_error",
      score: null,
      display: "judge_error",
      reason,
      criteria: [],
      judges: runs.map((r) => judges(r, null, null)),
    };
  }

  // Go's ReferenceData: the item, the prompt it asked and its known-good answers.
  const referenceData: ReferenceData | undefined = reference && {
    ...(cell.cell?.item !== undefined ? { id: cell.cell.item } : {}),
    ...(input.prompt !== undefined ? { input: input.prompt } : {}),
    ...(reference.expectedOutputs[0] !== undefined
      ? { expected_output: reference.expectedOutputs[0] }
      : {}),
    ...(reference.expectedOutputs.length > 1
      ? { expected_outputs: reference.expectedOutputs }
      : {}),
    ...(reference.context.length > 0 ? { context: reference.context } : {}),
  };
  const generatedAt = new Date(now()).toISOString();
  const rerunCommand = rerunCommandFor({
    suiteFile: cell.eval.location.file,
    evalName: cell.eval.name,
  });
  const reviews: JudgedReview[] = runs.map((run) => {
    const own = run.calls;
    const judge = judgeMetadata({
      judgeId: run.judge.label,
      model: run.judge.model,
      ...(run.judge.provider !== undefined ? { provider: run.judge.provider } : {}),
      templateVersion: REVIEW_TEMPLATE_VERSION,
      maxTokens: cell.eval.judge.maxTokens,
      rubric,
      evaluatedAt: generatedAt,
      calls: own,
    });
    const categories = run.categories!;
    const metadata = reportMetadata({
      document: cell.eval.document,
      generatedAt,
      reviewerId: run.judge.label,
    });
    return {
      judgeId: run.judge.label,
      report: buildEvaluationReport({
        rubric,
        metadata,
        judge,
        categories,
        findings: categories.flatMap((c) => c.findings ?? []),
        rerunCommand,
        ...(referenceData ? { reference: referenceData } : {}),
      }),
    };
  });

  let outcome: ReviewOutcome;
  if (reviews.length === 1) outcome = { report: reviews[0]!.report };
  else {
    const multiJudge = aggregateEvaluations({
      reviews,
      judges: reviews.map((r) => r.report.judge!),
      method: aggregationMethodOf(cell.eval.judge.aggregate),
      rubric,
    });
    const metadata = reportMetadata({
      document: cell.eval.document,
      generatedAt,
      reviewerId: `${reviews.length} judges (${multiJudge.aggregationMethod})`,
    });
    const report = buildEvaluationReport({
      rubric,
      metadata,
      categories: multiJudge.aggregatedCategories,
      findings: multiJudge.consolidatedFindings,
      rerunCommand,
      ...(referenceData ? { reference: referenceData } : {}),
      decision: multiJudge.consolidatedDecision,
    });
    outcome = { report, multiJudge };
  }

  const { decision } = outcome.report;
  const score = reviewScore(outcome.report.categories, rubric.categories);
  return {
    ...common,
    status: decision.passed ? "passed" : "failed",
    score,
    display: decision.status,
    reason: `${decision.status}: ${decision.rationale}`,
    gates: decision.passed ? [] : [decision.rationale],
    criteria: criterionRows({ rubric, categories: outcome.report.categories, runs }),
    judges: runs.map((run, i) =>
      judges(
        run,
        reviews[i]!.report.decision.passed,
        reviewScore(run.categories!, rubric.categories),
      ),
    ),
    review: outcome,
  };
}
