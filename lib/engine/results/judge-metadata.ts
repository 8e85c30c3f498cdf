import type { RubricSetConfig } from "../../config/category-types";
import { addTokenUsage, type TokenUsage } from "../ports/judge-port";
import type { JudgeCallSummary } from "./report";
import type { JudgeMetadata } from "./review-types";
import { tokenUsageToWire } from "./token-usage-wire";

// A judge's JudgeMetadata (the Go wire format) from the calls it made: shared
// by reviews and pairwise comparisons, so it sits below both.

/** The one value every call agrees on, or the distinct values joined ("a, b"); undefined when none has one. */
function agreed<T extends string | number>(values: (T | undefined)[]): T | string | undefined {
  const distinct = [...new Set(values.filter((v): v is T => v !== undefined))];
  return distinct.length <= 1 ? distinct[0] : distinct.join(", ");
}

/**
 * One judge's JudgeMetadata from the calls it made: latency and tokens summed,
 * and what the calls record of the request and reply: the model version the
 * API answered with, the system prompt's SHA-256 (the spec: "or hash/reference
 * if too long"; ours holds the whole rubric), the temperature where known.
 */
export function judgeMetadata(input: {
  judgeId: string;
  model: string;
  /** The resolved provider; anthropic when the caller resolved none. */
  provider?: string;
  templateVersion: string;
  /** The prompt template's name (default: the review's). */
  template?: string;
  maxTokens: number;
  rubric?: RubricSetConfig;
  evaluatedAt: string;
  calls: JudgeCallSummary[];
}): JudgeMetadata {
  const { calls } = input;
  const usage = calls.reduce((sum, c) => addTokenUsage(sum, c.usage), {
    input: 0,
    output: 0,
    cacheRead: 0,
    cacheWrite: 0,
  } as TokenUsage);
  const modelVersion = agreed(calls.map((c) => c.modelVersion));
  const systemPrompt = agreed(calls.map((c) => c.systemPromptSha256));
  const temperatures = [...new Set(calls.map((c) => c.temperature))];
  const temperature = temperatures.length === 1 ? temperatures[0] : undefined;
  return {
    judge_id: input.judgeId,
    model: input.model,
    model_provider: input.provider ?? "anthropic",
    ...(modelVersion !== undefined ? { model_version: String(modelVersion) } : {}),
    prompt_template: input.template ?? "rubric-studio review",
    prompt_version: input.templateVersion,
    ...(systemPrompt !== undefined ? { system_prompt: `sha256:${systemPrompt}` } : {}),
    ...(temperature !== undefined ? { temperature } : {}),
    max_tokens: input.maxTokens,
    ...(input.rubric ? { rubric_id: input.rubric.id, rubric_version: input.rubric.version } : {}),
    evaluated_at: input.evaluatedAt,
    // A Go time.Duration is nanoseconds.
    latency: Math.round(calls.reduce((sum, c) => sum + c.latencyMs, 0) * 1_000_000),
    tokens_used: tokenUsageToWire(usage),
  };
}
