import * as z from "zod";
import { describeZodError, goList, omitempty, toGoJson } from "../../config/go-json";
import type { EvaluationReport, MultiJudgeResult } from "../results/review-types";

// EvaluationReport and MultiJudgeResult as the Go package reads and writes
// them: fields in struct order, omitempty honoured, JudgeMetadata and
// TokenUsage in snake_case, latency in nanoseconds. `rubric-studio review`
// writes these; parseEvaluationReport reads a file the Go package wrote.

const SEVERITY = z.enum(["critical", "high", "medium", "low", "info"]);
const SCORE = z.enum(["pass", "partial", "fail"]);

const Finding = z.object({
  id: z.string(),
  category: z.string(),
  severity: SEVERITY,
  title: z.string(),
  description: z.string(),
  recommendation: z.string(),
  evidence: omitempty(z.string()),
  owner: omitempty(z.string()),
  effort: omitempty(z.string()),
});

const CategoryResult = z.object({
  category: z.string(),
  score: SCORE,
  reasoning: z.string(),
  evidence: omitempty(z.array(z.string())),
  findings: omitempty(z.array(Finding)),
  checklistResults: omitempty(
    z.object({
      requiredPresent: omitempty(z.array(z.string())),
      requiredMissing: omitempty(z.array(z.string())),
      optionalPresent: omitempty(z.array(z.string())),
      optionalMissing: omitempty(z.array(z.string())),
    }),
  ),
});

const Decision = z.object({
  status: z.enum(["pass", "conditional", "fail", "human_review"]),
  passed: z.boolean(),
  rationale: z.string(),
  findingCounts: z.object({
    critical: z.int(),
    high: z.int(),
    medium: z.int(),
    low: z.int(),
    info: z.int(),
    total: z.int(),
  }),
  categoryCounts: z.object({ pass: z.int(), partial: z.int(), fail: z.int(), total: z.int() }),
});

const ActionItem = z.object({
  action: z.string(),
  category: omitempty(z.string()),
  severity: omitempty(SEVERITY),
  owner: omitempty(z.string()),
  effort: omitempty(z.string()),
});

export const JudgeMetadataSchema = z.object({
  judge_id: omitempty(z.string()),
  model: z.string(),
  model_provider: omitempty(z.string()),
  model_version: omitempty(z.string()),
  prompt_template: omitempty(z.string()),
  prompt_version: omitempty(z.string()),
  system_prompt: omitempty(z.string()),
  temperature: omitempty(z.number()),
  max_tokens: omitempty(z.int()),
  rubric_id: omitempty(z.string()),
  rubric_version: omitempty(z.string()),
  evaluated_at: z.string(),
  latency: omitempty(z.int()),
  tokens_used: omitempty(
    z.object({
      input_tokens: z.int(),
      output_tokens: z.int(),
      total_tokens: z.int(),
      cache_read_tokens: omitempty(z.int()),
      cache_write_tokens: omitempty(z.int()),
    }),
  ),
  trace_id: omitempty(z.string()),
  span_id: omitempty(z.string()),
});

const Reference = z.object({
  id: omitempty(z.string()),
  input: omitempty(z.string()),
  expected_output: omitempty(z.string()),
  expected_outputs: omitempty(z.array(z.string())),
  context: omitempty(z.array(z.string())),
  annotations: omitempty(
    z.array(
      z.object({
        name: z.string(),
        score: omitempty(z.number()),
        label: omitempty(z.string()),
        explanation: omitempty(z.string()),
        annotator_id: omitempty(z.string()),
        annotator_type: omitempty(z.string()),
      }),
    ),
  ),
  source: omitempty(z.string()),
  tags: omitempty(z.array(z.string())),
  metadata: omitempty(z.record(z.string(), z.unknown())),
});

export const EvaluationReportSchema = z.object({
  $schema: omitempty(z.string()),
  metadata: z.object({
    document: z.string(),
    documentId: omitempty(z.string()),
    documentTitle: omitempty(z.string()),
    documentVersion: omitempty(z.string()),
    generatedAt: z.string(),
    generatedBy: omitempty(z.string()),
    reviewerId: omitempty(z.string()),
  }),
  reviewType: z.string(),
  judge: omitempty(JudgeMetadataSchema),
  rubricId: omitempty(z.string()),
  rubricVersion: omitempty(z.string()),
  reference: omitempty(Reference),
  categories: goList(CategoryResult),
  findings: goList(Finding),
  passCriteria: z.object({
    minCategoriesPassing: z.string(),
    maxFindingsSeverity: omitempty(
      z.object({ critical: z.int(), high: z.int(), medium: z.int(), low: omitempty(z.int()) }),
    ),
  }),
  decision: Decision,
  overallDecision: z.string(),
  nextSteps: z.object({
    rerunCommand: omitempty(z.string()),
    immediate: omitempty(z.array(ActionItem)),
    recommended: omitempty(z.array(ActionItem)),
  }),
  summary: z.string(),
});

export const MultiJudgeResultSchema = z.object({
  evaluations: goList(EvaluationReportSchema),
  judges: goList(JudgeMetadataSchema),
  aggregatedCategories: goList(CategoryResult),
  aggregationMethod: z.enum(["majority", "conservative", "optimistic", "unanimous"]),
  agreement: z.number(),
  disagreements: omitempty(
    z.array(
      z.object({
        category: z.string(),
        scores: goList(z.object({ judgeId: z.string(), score: SCORE })),
        uniqueScores: z.int(),
      }),
    ),
  ),
  consolidatedDecision: Decision,
  consolidatedFindings: goList(Finding),
});

export type ParseWireResult<T> = { ok: true; value: T } | { ok: false; issues: string[] };

export function parseEvaluationReport(data: unknown): ParseWireResult<EvaluationReport> {
  const parsed = EvaluationReportSchema.safeParse(data);
  return parsed.success
    ? { ok: true, value: parsed.data as EvaluationReport }
    : { ok: false, issues: describeZodError(parsed.error) };
}

export function parseMultiJudgeResult(data: unknown): ParseWireResult<MultiJudgeResult> {
  const parsed = MultiJudgeResultSchema.safeParse(data);
  return parsed.success
    ? { ok: true, value: parsed.data as MultiJudgeResult }
    : { ok: false, issues: describeZodError(parsed.error) };
}

/** The object Go's json.Marshal would produce for this report. */
export function evaluationReportToJson(report: EvaluationReport): unknown {
  return toGoJson(EvaluationReportSchema, report);
}

export function multiJudgeResultToJson(result: MultiJudgeResult): unknown {
  return toGoJson(MultiJudgeResultSchema, result);
}
