import path from "node:path";
import { jsonErrorPlace } from "../config/dataset-file-problem";
import { resultFromReview, outcomeFromMultiJudge } from "../engine/review/result-from-wire";
import type { ReviewOutcome } from "../engine/results/review-types";
import { parseEvaluationReport, parseMultiJudgeResult } from "../engine/review/wire-json";
import { buildReport, exitCodeOf } from "../engine/run-suite";
import { priceOf } from "../judge/pricing";
import type { ReporterName } from "../report/registry";
import type { CliIo } from "./cli-io";
import { readBoundedFile } from "./read-bounded-file";
import { writeReports } from "./write-reports";

// `rubric-studio report FILE`: a review the Go package wrote (an
// EvaluationReport, an array of them, or a MultiJudgeResult), rendered with
// every reporter, as `report RUN_ID` renders a stored run. Exit 0 when every
// review passed, 1 when one did not, 2 when the file is not one of these.

type Parsed = { ok: true; outcomes: ReviewOutcome[] } | { ok: false; issues: string[] };

function parseReviews(data: unknown): Parsed {
  if (Array.isArray(data)) {
    const outcomes: ReviewOutcome[] = [];
    const issues: string[] = [];
    data.forEach((item, i) => {
      const parsed = parseEvaluationReport(item);
      if (parsed.ok) outcomes.push({ report: parsed.value });
      else issues.push(...parsed.issues.map((issue) => `[${i}].${issue}`));
    });
    if (data.length === 0) issues.push("the array holds no EvaluationReport");
    return issues.length > 0 ? { ok: false, issues } : { ok: true, outcomes };
  }
  if (data !== null && typeof data === "object" && "evaluations" in data) {
    const parsed = parseMultiJudgeResult(data);
    if (!parsed.ok)
      return {
        ok: false,
        issues: parsed.issues.map((issue) => `not a MultiJudgeResult: ${issue}`),
      };
    const outcome = outcomeFromMultiJudge(parsed.value);
    return outcome
      ? { ok: true, outcomes: [outcome] }
      : { ok: false, issues: ["the MultiJudgeResult has no evaluations"] };
  }
  const parsed = parseEvaluationReport(data);
  return parsed.ok
    ? { ok: true, outcomes: [{ report: parsed.value }] }
    : { ok: false, issues: parsed.issues.map((issue) => `not an EvaluationReport: ${issue}`) };
}

export async function reportFileCommand(input: {
  file: string;
  io: CliIo;
  reporters: ReporterName[];
  output?: string;
  color: boolean;
  toolVersion: string;
}): Promise<number> {
  const { file, io } = input;
  const read = await readBoundedFile(path.resolve(io.cwd, file));
  if (!read.ok) {
    io.stderr.write(
      `${file}:1:1: error: cannot read the report: ${read.message} (report takes a RUN_ID, latest for the newest stored run, or a review file)\n`,
    );
    return 2;
  }
  let data: unknown;
  try {
    data = JSON.parse(read.text.replace(/^\uFEFF/, ""));
  } catch (error) {
    const at = jsonErrorPlace((error as Error).message);
    io.stderr.write(
      `${file}:${at.line}:${at.column}: error: not valid JSON: ${(error as Error).message}\n`,
    );
    return 2;
  }
  const parsed = parseReviews(data);
  if (!parsed.ok) {
    for (const issue of parsed.issues.slice(0, 20))
      io.stderr.write(`${file}:1:1: error: ${issue}\n`);
    return 2;
  }
  const seen = new Map<string, number>();
  const results = parsed.outcomes.map((outcome) => {
    const { metadata } = outcome.report;
    const base = `review ${metadata.documentTitle ?? metadata.document}`;
    const count = (seen.get(base) ?? 0) + 1;
    seen.set(base, count);
    const name = count > 1 ? `${base} #${count}` : base;
    return resultFromReview({ outcome, id: name, name });
  });
  const times = parsed.outcomes
    .map((o) => Date.parse(o.report.metadata.generatedAt))
    .filter(Number.isFinite);
  const at = times.length > 0 ? Math.min(...times) : 0;
  const report = buildReport({
    results,
    suite: { file, servers: {}, evals: [] },
    toolVersion: input.toolVersion,
    startedAt: at,
    finishedAt: times.length > 0 ? Math.max(...times) : at,
    priceOf,
  });
  await writeReports({
    names: input.reporters,
    report,
    output: input.output,
    io,
    color: input.color,
  });
  return exitCodeOf(report);
}
