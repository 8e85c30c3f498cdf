import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  evaluationReportToJson,
  multiJudgeResultToJson,
  parseEvaluationReport,
  parseMultiJudgeResult,
} from "../../../lib/engine/review/wire-json";
import { resultFromReview } from "../../../lib/engine/review/result-from-wire";
import { byCategory, categoryOf, createFakeJudge } from "../../support/fake-judge";
import { runOne } from "../../support/run-yaml";

// The JSON wire format of spec 004: an EvaluationReport written the way the Go
// package writes one (camelCase report fields, snake_case JudgeMetadata and
// TokenUsage, latency in nanoseconds, omitempty) reads and writes back
// unchanged, key order included; and what we write reads back the same.

const fixture = readFileSync(
  new URL("../../fixtures/review/evaluation-report.json", import.meta.url),
  "utf8",
);

describe("EvaluationReport JSON", () => {
  it("round-trips a report written by the Go package", () => {
    const parsed = parseEvaluationReport(JSON.parse(fixture));
    if (!parsed.ok) throw new Error(parsed.issues.join("\n"));
    expect(parsed.value.judge?.latency).toBe(2_350_000_000);
    expect(parsed.value.judge?.tokens_used?.cache_read_tokens).toBe(4000);
    expect(JSON.stringify(evaluationReportToJson(parsed.value), null, 2)).toBe(
      JSON.stringify(JSON.parse(fixture), null, 2),
    );
  });

  it("drops omitempty fields that hold zero values, as Go does, and keeps the others", () => {
    const parsed = parseEvaluationReport(JSON.parse(fixture));
    if (!parsed.ok) throw new Error("fixture");
    const zeroed = {
      ...parsed.value,
      judge: { ...parsed.value.judge!, temperature: 0, latency: 0, trace_id: "" },
      categories: [{ ...parsed.value.categories[0]!, evidence: [] }],
    };
    const out = evaluationReportToJson(zeroed) as {
      judge: Record<string, unknown>;
      categories: Record<string, unknown>[];
    };
    expect(out.judge).not.toHaveProperty("temperature");
    expect(out.judge).not.toHaveProperty("latency");
    expect(out.judge).not.toHaveProperty("trace_id");
    expect(out.judge).toHaveProperty("evaluated_at");
    expect(out.categories[0]).not.toHaveProperty("evidence");
    expect(out.categories[0]).toHaveProperty("reasoning");
  });

  it("reads Go's null for an empty list without omitempty", () => {
    const data = { ...JSON.parse(fixture), findings: null };
    const parsed = parseEvaluationReport(data);
    expect(parsed.ok && parsed.value.findings).toEqual([]);
  });

  it("names the field of a report that is not one", () => {
    const data = { ...JSON.parse(fixture), decision: { status: "maybe" } };
    const parsed = parseEvaluationReport(data);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.issues.join("\n")).toMatch(/decision\.status/);
  });
});

describe("what a review writes", () => {
  const suite = `
evals:
  - name: r
    document: { text: "Plan.", id: DOC-7, title: Plan }
    rubric:
      categories:
        - { id: a, description: x, required: true }
        - { id: b, description: y }
    judge: { panel: [m1, m2] }
`;
  const answer = {
    verdict: { reasoning: "r", score: "pass" as const, evidence: ["Plan."], findings: [] },
  };

  it("an EvaluationReport and a MultiJudgeResult that read back unchanged, with snake_case judge metadata", async () => {
    const judge = createFakeJudge((request) =>
      categoryOf(request) === "b" && request.model === "m2"
        ? { verdict: { ...answer.verdict, score: "partial" } }
        : answer,
    );
    const result = await runOne(suite, { judge });
    const report = evaluationReportToJson(result.review!.report) as Record<string, unknown>;
    expect(Object.keys(report)).toEqual([
      "metadata",
      "reviewType",
      "rubricId",
      "rubricVersion",
      "categories",
      "findings",
      "passCriteria",
      "decision",
      "overallDecision",
      "nextSteps",
      "summary",
    ]);
    expect(report.metadata).toMatchObject({
      document: "(inline)",
      documentId: "DOC-7",
      documentTitle: "Plan",
      generatedBy: "rubric-studio",
    });
    const reparsed = parseEvaluationReport(JSON.parse(JSON.stringify(report)));
    expect(reparsed.ok && evaluationReportToJson(reparsed.value)).toEqual(report);

    const multi = multiJudgeResultToJson(result.review!.multiJudge!) as {
      judges: Record<string, unknown>[];
    };
    expect(Object.keys(multi.judges[0]!)).toEqual([
      "judge_id",
      "model",
      "model_provider",
      "prompt_template",
      "prompt_version",
      "max_tokens",
      "rubric_id",
      "rubric_version",
      "evaluated_at",
      "tokens_used",
    ]);
    const back = parseMultiJudgeResult(JSON.parse(JSON.stringify(multi)));
    expect(back.ok && multiJudgeResultToJson(back.value)).toEqual(multi);
  });

  it("a judge's latency is the sum of its calls, written in nanoseconds", async () => {
    const judge = createFakeJudge(
      byCategory({ a: { ...answer, delayMs: 5 }, b: { ...answer, delayMs: 7 } }),
    );
    const result = await runOne(suite.replace("judge: { panel: [m1, m2] }", ""), { judge });
    // The fake judge records each call's latency as its delay: 5 ms + 7 ms.
    expect(evaluationReportToJson(result.review!.report)).toMatchObject({
      judge: { model: "claude-sonnet-4-5", latency: 12_000_000 },
    });
  });

  it("tokens: input_tokens counts cache reads and writes once, both ways (what review writes, report FILE reads back)", async () => {
    const usage = { input: 100, output: 40, cacheRead: 3000, cacheWrite: 500 };
    const judge = createFakeJudge(() => ({ ...answer, usage }));
    const result = await runOne(suite.replace("judge: { panel: [m1, m2] }", ""), { judge });
    const written = evaluationReportToJson(result.review!.report) as {
      judge: { tokens_used: Record<string, number> };
    };
    // Two categories, one call each.
    expect(written.judge.tokens_used).toEqual({
      input_tokens: 7200,
      output_tokens: 80,
      total_tokens: 7280,
      cache_read_tokens: 6000,
      cache_write_tokens: 1000,
    });
    const reread = parseEvaluationReport(JSON.parse(JSON.stringify(written)));
    if (!reread.ok) throw new Error(reread.issues.join("\n"));
    const back = resultFromReview({ outcome: { report: reread.value }, id: "r", name: "r" });
    expect(back.usage).toEqual({ input: 200, output: 80, cacheRead: 6000, cacheWrite: 1000 });
  });

  it("the Go fixture's tokens add up to its total_tokens, cache reads counted once", () => {
    const parsed = parseEvaluationReport(JSON.parse(fixture));
    if (!parsed.ok) throw new Error(parsed.issues.join("\n"));
    const { usage } = resultFromReview({ outcome: { report: parsed.value }, id: "r", name: "r" });
    expect(usage).toEqual({ input: 1200, output: 900, cacheRead: 4000, cacheWrite: 0 });
    expect(usage.input + usage.output + usage.cacheRead + usage.cacheWrite).toBe(6100);
  });
});
