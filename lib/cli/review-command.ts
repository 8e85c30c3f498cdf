import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import type { RubricSetConfig } from "../config/category-types";
import { runSuite } from "../engine/run-suite";
import type { EvalResult } from "../engine/results/report";
import { aggregateEvaluations } from "../engine/review/multi-judge";
import { AGGREGATION_METHODS } from "../engine/review/aggregation/registry";
import { evaluationReportToJson, multiJudgeResultToJson } from "../engine/review/wire-json";
import { createRedactor } from "../engine/results/redact-values";
import { prepareJudging, type JudgingOptions } from "./prepare-judging";
import type { CliIo } from "./cli-io";

// `rubric-studio review --config F`: grades the suite's category-rubric evals
// and writes each review in the Go package's JSON wire format: an
// EvaluationReport (the consolidated one for a jury or panel), or with
// --multi-judge the MultiJudgeResult. One review is one JSON object; several
// are an array. Exit 0 when every review passed (Decision.passed), 1 when one
// did not, could not be graded or was skipped, 2 for config or usage errors.

export interface ReviewOptions extends JudgingOptions {
  output?: string;
  multiJudge?: boolean;
  maxCost?: number;
  concurrency: number;
}

function wireOf(result: EvalResult, multi: boolean, rubric: RubricSetConfig): unknown {
  const review = result.review!;
  if (!multi) return evaluationReportToJson(review.report);
  // One judge is a panel of one: agreement 1, no disagreements.
  const judges = review.report.judge ? [review.report.judge] : [];
  const single = () =>
    aggregateEvaluations({
      reviews: [{ judgeId: result.judges[0]?.judge ?? "judge", report: review.report }],
      judges,
      method: AGGREGATION_METHODS.majority,
      rubric,
    });
  return multiJudgeResultToJson(review.multiJudge ?? single());
}

export async function reviewCommand(input: {
  options: ReviewOptions;
  io: CliIo;
  toolVersion: string;
}): Promise<number> {
  const { options, io, toolVersion } = input;
  const setup = await prepareJudging({ options, io });
  if (!setup.ok) return setup.exitCode;
  const { suite, settings, filter, judge, providers, batch } = setup.value;
  const reviews = suite.evals.filter(
    (e) => e.rubric.kind === "categories" && (!filter || filter.test(e.name)),
  );
  const others = suite.evals.filter((e) => e.rubric.kind !== "categories").length;
  if (reviews.length === 0) {
    io.stderr.write(
      `error: no eval${filter ? " matching --filter" : ""} has a category rubric (categories:); grade other rubrics with rubric-studio eval\n`,
    );
    return 2;
  }
  if (others > 0)
    io.stderr.write(
      `note: ${others} eval${others === 1 ? " has" : "s have"} no category rubric and ${others === 1 ? "is" : "are"} left to rubric-studio eval\n`,
    );

  const report = await runSuite(
    {
      suite: { ...suite, evals: reviews },
      defaultModel: settings.judgeModel,
      resolveModel: providers.resolve,
      concurrency: options.concurrency,
      ...(options.maxCost !== undefined ? { maxCostUsd: options.maxCost } : {}),
      ...(batch ? { batch } : {}),
      toolVersion,
    },
    {
      judge,
      now: Date.now,
      priceOf: providers.priceOf,
      // Before anything is printed or written: credential shapes, and the keys this process sends.
      redact: createRedactor(providers.secrets),
      onEvent: (event) => {
        if (event.type === "warning") io.stderr.write(`warning: ${event.message}\n`);
      },
    },
  );

  const written: unknown[] = [];
  for (const result of report.results) {
    const mark = result.status === "passed" ? "✓" : result.status === "deferred" ? "-" : "✗";
    io.stderr.write(`${mark} ${result.name}: ${result.reason}\n`);
    const rubric = reviews.find((e) => e.name === result.eval)?.rubric;
    if (result.review && rubric?.kind === "categories")
      written.push(wireOf(result, Boolean(options.multiJudge), rubric.rubricSet));
  }
  const text = `${JSON.stringify(written.length === 1 ? written[0] : written, null, 2)}\n`;
  if (options.output === undefined) io.stdout.write(text);
  else {
    const target = path.resolve(io.cwd, options.output);
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, text);
    io.stderr.write(
      `wrote ${written.length} review${written.length === 1 ? "" : "s"} to ${options.output}\n`,
    );
  }
  const failing = report.results.filter(
    (r) => r.status !== "passed" && r.status !== "deferred",
  ).length;
  return failing > 0 ? 1 : 0;
}
