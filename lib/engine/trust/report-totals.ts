import type { ModelPrice } from "../cost/cost";
import { addCallToTotals, savingsOf, savingsOfCalls, type ModelCallTotals } from "../cost/savings";
import { ZERO_USAGE, addTokenUsage, type TokenUsage } from "../ports/judge-port";
import type { EvalResult, EvalStatus, Report, SelfGradingWarning } from "../results/report";
import type { ReviewOutcome } from "../results/review-types";
import { addSelfGrading } from "../results/self-grading";
import type { SkippedBy } from "../results/skip-kind";
import { judgeAgreement } from "./agreement/judge-agreement";

// The report's figures folded one result at a time, so that a run of a million
// results builds its summary, usage, cost, savings, budget, judge agreement and
// self-grading warnings without holding the results (issue 20). `buildReport`
// folds a whole array through the same code, so a streamed run and a collected
// one cannot disagree: sums are taken in the order the results are added, as
// before, and the figures are the same to the last bit.
//
// What it keeps per result: nothing for a result graded by one judge; for one
// whose judges' agreement is measured (several judges, or a matrix cell that
// differs only by judge model) a slim copy of its ratings (ids, names, and per
// criterion each judge's score: about 150 bytes plus 60 per verdict), without
// texts, calls or candidates; and the name of a result a judge of the agent's
// own family graded (the warning lists them).

/** A report without its results: what a streamed run returns, its results having gone to the sink. */
export type ReportHead = Omit<Report, "results">;

const STATUS_FIELDS: Record<EvalStatus, keyof ReportTotals["counts"]> = {
  passed: "passed",
  failed: "failed",
  deferred: "deferred",
  judge_error: "judgeErrors",
  skipped: "skipped",
};

/** Whether judgeAgreement can use this result (several judges, or a cell pooled with its other judge models). */
function ratedByJudges(result: EvalResult): boolean {
  if ((result.status !== "passed" && result.status !== "failed") || result.pairwise) return false;
  return result.cell?.model !== undefined || new Set(result.judges.map((j) => j.judge)).size >= 2;
}

/** What agreementItems reads of a result, without its texts (judgeAgreement uses ratings only). */
function ratingsOf(result: EvalResult): EvalResult {
  return {
    ...result,
    reason: "",
    rubric: { kind: result.rubric.kind, source: result.rubric.source },
    candidate: { source: result.candidate.source },
    // Only whether there is a review matters (its scale is nominal).
    ...(result.review ? { review: {} as ReviewOutcome } : {}),
    criteria: result.criteria.map((c) => ({
      ...c,
      description: "",
      reasoning: "",
      verdicts: c.verdicts.map((v) => ({ ...v, reasoning: "" })),
    })),
    judges: result.judges.map(({ treePath: _t, evidence: _e, ...j }) => ({
      ...j,
      reasoning: "",
    })),
    tree: undefined,
    calls: [],
    gates: [],
  };
}

export class ReportTotals {
  private total = 0;
  /** Results per status, in the summary's order. */
  readonly counts = { passed: 0, failed: 0, deferred: 0, judgeErrors: 0, skipped: 0 };
  private readonly skippedBy: SkippedBy = {};
  private vacuous = 0;
  private judgeCalls = 0;
  private costUsd = 0;
  private usage: TokenUsage = ZERO_USAGE;
  private readonly generation = { calls: 0, costUsd: 0, usage: ZERO_USAGE };
  private reusedCalls = 0;
  private readonly callTotals = new Map<string, ModelCallTotals>();
  private rated: EvalResult[] = [];
  /** Results judgeAgreement could use, counted also past `maxRated` (when their ratings are no longer kept). */
  private ratedSeen = 0;
  private readonly selfGrading = new Map<string, SelfGradingWarning>();

  /**
   * `maxRated`: keep the ratings of at most this many results for judge agreement; past it, none
   * are kept and the head has no agreement (`agreementLeftOut` says how many there were), so a
   * reader of a million multi-judge results stays in bounded memory. No bound by default.
   */
  constructor(
    private readonly priceOf: (model: string) => ModelPrice | undefined,
    private readonly options: { maxRated?: number } = {},
  ) {}

  /** How many results judge agreement would have measured, when there were more than `maxRated`. */
  agreementLeftOut(): number | undefined {
    const max = this.options.maxRated;
    return max !== undefined && this.ratedSeen > max ? this.ratedSeen : undefined;
  }

  /** Folds one result in; returns it as the report carries it (with its savings). */
  add(input: EvalResult): EvalResult {
    const result = { ...input, savings: savingsOfCalls(input.calls, this.priceOf) };
    this.total++;
    this.counts[STATUS_FIELDS[result.status]]++;
    if (result.status === "skipped" && result.skipKind)
      this.skippedBy[result.skipKind] = (this.skippedBy[result.skipKind] ?? 0) + 1;
    if (result.vacuous) this.vacuous++;
    this.judgeCalls += result.judgeCalls;
    this.costUsd += result.costUsd;
    this.usage = addTokenUsage(this.usage, result.usage);
    // A live run shared by several cells is paid by one of them (the others name it in countedIn).
    const agent = result.candidate.agent;
    if (agent && agent.countedIn === undefined) {
      this.generation.calls += agent.calls.length;
      this.generation.costUsd += agent.costUsd;
      this.generation.usage = addTokenUsage(this.generation.usage, agent.usage);
    }
    for (const call of result.calls) {
      if (call.reused) this.reusedCalls++;
      addCallToTotals(this.callTotals, call);
    }
    if (ratedByJudges(result)) {
      this.ratedSeen++;
      if (this.ratedSeen <= (this.options.maxRated ?? Infinity)) this.rated.push(ratingsOf(result));
      else this.rated = [];
    }
    addSelfGrading(this.selfGrading, result);
    return result;
  }

  /** The slim copies of the results whose judges' agreement is measured (what the review queue's split questions read). */
  get ratings(): readonly EvalResult[] {
    return this.rated;
  }

  /** The report's figures over every result added so far. */
  head(input: {
    suite: { file: string; description?: string };
    toolVersion: string;
    startedAt: number;
    finishedAt: number;
    maxCostUsd?: number;
  }): ReportHead {
    const { suite, toolVersion, startedAt, finishedAt, maxCostUsd } = input;
    const agreement = this.agreementLeftOut() === undefined ? judgeAgreement(this.rated) : [];
    const selfGrading = [...this.selfGrading.values()];
    const { skipped } = this.counts;
    return {
      schemaVersion: 1,
      tool: { name: "rubric-studio", version: toolVersion },
      suite: {
        file: suite.file,
        ...(suite.description !== undefined ? { description: suite.description } : {}),
      },
      startedAt: new Date(startedAt).toISOString(),
      finishedAt: new Date(finishedAt).toISOString(),
      durationMs: finishedAt - startedAt,
      summary: {
        total: this.total,
        ...this.counts,
        ...(skipped > 0 ? { skippedBy: { ...this.skippedBy } } : {}),
        vacuous: this.vacuous,
        judgeCalls: this.judgeCalls,
        costUsd: this.costUsd,
        usage: this.usage,
        ...(this.generation.calls > 0 ? { generation: { ...this.generation } } : {}),
        ...(this.reusedCalls ? { reused: { calls: this.reusedCalls } } : {}),
        savings: savingsOf({ models: [...this.callTotals.values()], priceOf: this.priceOf }),
      },
      ...(maxCostUsd !== undefined ? { budget: { maxCostUsd, spentUsd: this.costUsd } } : {}),
      ...(agreement.length > 0 ? { agreement } : {}),
      ...(selfGrading.length > 0 ? { selfGrading } : {}),
    };
  }
}
