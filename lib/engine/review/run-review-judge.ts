import type { RubricSetConfig } from "../../config/category-types";
import type { JudgeRequest } from "../ports/judge-port";
import type { JudgeCallSummary, VerdictRecord } from "../results/report";
import type { JudgeInstance } from "../grade/planned-cell";
import type { CallJudge, CallResult } from "../grade/call-judge";
import type { Reference } from "../grade/build-prompt";
import type { SkipReason } from "../grade/call-scheduler";
import type { CategoryVerdict, VerdictKind, VerdictOf } from "../ports/verdict";
import { categoryRequest, holisticRequest } from "./review-prompt";
import { categoryResultOf, SCORE_POINTS } from "./category-result";
import type { CategoryResult } from "../results/review-types";

// One judge (a juror, or a panel model) reviews the document: one call per
// category (analytic) or one call for all (holistic). Any judge error makes
// this judge's review an error; a call the scheduler never started makes it
// skipped. Neither ever becomes a pass or a fail.

export interface ReviewJudgeRun {
  judge: JudgeInstance;
  categories?: CategoryResult[];
  error?: string;
  skipped?: SkipReason;
  calls: JudgeCallSummary[];
  /** Per category id, this judge's vote as a verdict record (score in points: pass 1, partial 0.5, fail 0). */
  verdicts: Map<string, VerdictRecord>;
}

export async function runReviewJudge(input: {
  rubric: RubricSetConfig;
  judge: JudgeInstance;
  jurors: number;
  maxTokens: number;
  document: string;
  /** The prompt a generated or live document answered. */
  prompt?: string;
  /** The known-good answers beside a generated or live document (reference-guided review). */
  reference?: Reference;
  call: CallJudge;
}): Promise<ReviewJudgeRun> {
  const { rubric, judge, document, call } = input;
  const answered = {
    ...(input.prompt !== undefined ? { prompt: input.prompt } : {}),
    ...(input.reference ? { reference: input.reference } : {}),
  };
  const settings = {
    model: judge.model,
    maxTokens: input.maxTokens,
    sample: judge.juror,
    jurors: input.jurors,
  };
  const run: ReviewJudgeRun = { judge, calls: [], verdicts: new Map() };
  const errors: string[] = [];

  const send = async <K extends VerdictKind>(
    request: JudgeRequest<K>,
    what: string,
  ): Promise<CallResult<VerdictOf<K>> | undefined> => {
    const result = await call(request);
    if (result.kind === "skipped") {
      run.skipped ??= result.reason;
      return undefined;
    }
    const { raw: _raw, ...summary } = result.outcome.call;
    if (result.outcome.ok) run.calls.push(summary);
    else {
      const message = `${result.outcome.error.kind}: ${result.outcome.error.message}`;
      run.calls.push({ ...summary, error: message });
      errors.push(`${what}: ${message}`);
    }
    return result;
  };
  const record = (result: CategoryResult): void => {
    run.verdicts.set(result.category, {
      judge: judge.label,
      model: judge.model,
      juror: judge.juror,
      score: SCORE_POINTS[result.score],
      reasoning: result.reasoning,
    });
  };

  if (rubric.evaluationType === "holistic") {
    const result = await send(
      holisticRequest({ rubric, settings, document, ...answered }),
      "holistic review",
    );
    if (result?.kind === "done" && result.outcome.ok) {
      const entries = result.outcome.verdict.categories;
      const categories: CategoryResult[] = [];
      for (const category of rubric.categories) {
        const entry = entries.find((e) => e.category.trim() === category.id);
        if (!entry)
          errors.push(`malformed: the holistic verdict has no entry for category "${category.id}"`);
        else categories.push(categoryResultOf(category, entry));
      }
      if (errors.length === 0) run.categories = categories;
    }
  } else {
    const results = await Promise.all(
      rubric.categories.map(async (category) => {
        const result = await send(
          categoryRequest({ rubric, category, settings, document, ...answered }),
          `category ${category.id}`,
        );
        return result?.kind === "done" && result.outcome.ok
          ? categoryResultOf(category, result.outcome.verdict as CategoryVerdict)
          : undefined;
      }),
    );
    if (results.every((r) => r !== undefined)) run.categories = results;
  }
  if (errors.length > 0) run.error = errors.join("; ");
  if (run.categories && !run.error) run.categories.forEach(record);
  return run;
}
