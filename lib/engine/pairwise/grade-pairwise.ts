import type { PairwiseConfig } from "../../config/pairwise-types";
import { addTokenUsage, billedCalls } from "../ports/judge-port";
import type { EvalResult, JudgeCallSummary } from "../results/report";
import type { PlannedCell, JudgeInstance } from "../grade/planned-cell";
import { SKIPPED, type CallJudge, type ResultBase } from "../grade/call-judge";
import type { SkipReason } from "../grade/call-scheduler";
import type { PairwiseVerdict } from "../ports/verdict";
import { combineCategoryScores, combineOrders } from "./map-verdicts";
import {
  categoryWinners,
  computePairwiseResult,
  positionBias,
  wilsonIntervals,
} from "./pairwise-result";
import { pairwiseRequest, pairwiseStablePrompt } from "./pairwise-prompt";
import type { JudgedPair, PairwiseComparison, PairwiseOutcome } from "../results/pairwise-types";
import { judgeMetadata } from "../results/judge-metadata";
import type { JudgeMetadata } from "../results/review-types";

// Grades a pairwise eval: every judge compares every pair in both orders
// (never optional), the orders are combined by map-verdicts.ts, and the
// comparisons are summed up as the Go package does, with a Wilson interval
// and the judge's position-bias rate. With `expect:` the eval passes only
// when that output wins overall; without it the comparison is informational.

type PairwiseRubric = { kind: "pairwise"; comparison: PairwiseConfig };

interface JudgeRun {
  pairs: JudgedPair[];
  calls: JudgeCallSummary[];
  /** Per item id, the calls of its two orders: its comparison's JudgeMetadata. */
  pairCalls: Map<string, JudgeCallSummary[]>;
  errors: string[];
  skipped?: SkipReason;
}

async function runJudge(input: {
  config: PairwiseConfig;
  judge: JudgeInstance;
  jurors: number;
  maxTokens: number;
  call: CallJudge;
}): Promise<JudgeRun> {
  const { config, judge, call } = input;
  const settings = {
    model: judge.model,
    maxTokens: input.maxTokens,
    sample: judge.juror,
    jurors: input.jurors,
  };
  const stablePrompt = pairwiseStablePrompt(config);
  const run: JudgeRun = { pairs: [], calls: [], pairCalls: new Map(), errors: [] };
  const ask = async (
    item: PairwiseConfig["items"][number],
    first: string,
    second: string,
    order: string,
  ): Promise<PairwiseVerdict | undefined> => {
    const result = await call(
      pairwiseRequest({
        config,
        settings,
        stablePrompt,
        ...(item.input !== undefined ? { prompt: item.input } : {}),
        first,
        second,
      }),
    );
    if (result.kind === "skipped") {
      run.skipped ??= result.reason;
      return undefined;
    }
    const { raw: _raw, ...summary } = result.outcome.call;
    if (result.outcome.ok) {
      run.calls.push(summary);
      run.pairCalls.set(item.id, [...(run.pairCalls.get(item.id) ?? []), summary]);
      return result.outcome.verdict;
    }
    const message = `${judge.label}: pair ${item.id} (${order}): ${result.outcome.error.kind}: ${result.outcome.error.message}`;
    run.calls.push({ ...summary, error: message });
    run.errors.push(message);
    return undefined;
  };
  const names = config.criteria.map((c) => c.name);
  const judged = await Promise.all(
    config.items.map(async (item) => {
      const [original, swapped] = await Promise.all([
        ask(item, item.outputA, item.outputB, "A first"),
        ask(item, item.outputB, item.outputA, "B first"),
      ]);
      if (!original || !swapped) return undefined;
      const combined = combineOrders(original.winner, swapped.winner);
      const pair: JudgedPair = {
        item: item.id,
        judge: judge.label,
        original: original.winner,
        swapped: swapped.winner,
        ...combined,
        confidence: (original.confidence + swapped.confidence) / 2,
        reasoning: original.reasoning,
        categoryScores: combineCategoryScores({
          names,
          original: original.category_scores ?? [],
          swapped: swapped.category_scores ?? [],
        }),
      };
      return pair;
    }),
  );
  run.pairs = judged.filter((p): p is JudgedPair => p !== undefined);
  return run;
}

const percent = (x: number) => `${Math.round(x * 100)}%`;

function comparisonOf(input: {
  pair: JudgedPair;
  config: PairwiseConfig;
  at: string;
  judge: JudgeMetadata;
}): PairwiseComparison {
  const { pair, config, at } = input;
  const item = config.items.find((i) => i.id === pair.item)!;
  return {
    id: `${pair.item}/${pair.judge}`,
    input: item.input ?? "",
    output_a: item.outputA,
    output_b: item.outputB,
    winner: pair.winner,
    confidence: pair.confidence,
    reasoning: pair.reasoning,
    ...(pair.categoryScores.length > 0 ? { category_scores: pair.categoryScores } : {}),
    judge: input.judge,
    metadata: {
      judge: pair.judge,
      original_winner: pair.original,
      swapped_winner: pair.swapped,
      position_biased: pair.positionBiased,
      ...(pair.favoredPosition ? { favored_position: pair.favoredPosition } : {}),
    },
    created_at: at,
  };
}

export async function gradePairwiseCell(input: {
  cell: PlannedCell;
  call: CallJudge;
  now: () => number;
  base: ResultBase;
  started: number;
}): Promise<EvalResult> {
  const { cell, call, now, base, started } = input;
  const config = (cell.eval.rubric as PairwiseRubric).comparison;
  const runs = await Promise.all(
    cell.judges.map((judge) =>
      runJudge({
        config,
        judge,
        jurors: cell.judges.filter((j) => j.model === judge.model).length,
        maxTokens: cell.eval.judge.maxTokens,
        call,
      }),
    ),
  );
  const calls = runs.flatMap((r) => r.calls);
  const usage = calls.reduce((sum, c) => addTokenUsage(sum, c.usage), {
    input: 0,
    output: 0,
    cacheRead: 0,
    cacheWrite: 0,
  });
  const common = {
    ...base,
    thresholdDisplay: config.expect
      ? `${config.expect} (${config.expect === "A" ? config.labels.a : config.labels.b}) wins`
      : "informational",
    vacuous: false,
    criteria: [],
    usage,
    costUsd: calls.reduce((sum, c) => sum + (c.costUsd ?? 0), 0),
    judgeCalls: billedCalls(calls),
    latencyMs: Math.max(0, now() - started),
    calls,
  };
  const judgeRows = (score: (r: JudgeRun) => number | null) =>
    runs.map((r, i) => ({
      judge: cell.judges[i]!.label,
      model: cell.judges[i]!.model,
      juror: cell.judges[i]!.juror,
      score: score(r),
      passed: null,
      ...(r.errors.length ? { error: r.errors.join("; ") } : {}),
    }));

  const skipped = runs.find((r) => r.skipped)?.skipped;
  if (skipped) {
    return { ...common, ...SKIPPED.eval(skipped), gates: [], judges: judgeRows(() => null) };
  }
  const errors = runs.flatMap((r) => r.errors);
  if (errors.length > 0) {
    return {
      ...common,
      status: "judge_error",
      score: null,
      display: "judge_error",
      reason: errors.join("; "),
      gates: [],
      judges: judgeRows(() => null),
    };
  }

  const pairs = runs.flatMap((r) => r.pairs);
  const summary = computePairwiseResult(pairs);
  const at = new Date(now()).toISOString();
  const { winsA: _a, winsB: _b, ties: _t, total: _n, ...rates } = summary;
  const outcome: PairwiseOutcome = {
    labels: config.labels,
    result: {
      // Each comparison with its judge's metadata, from the calls of its two orders.
      comparisons: runs.flatMap((r, i) =>
        r.pairs.map((pair) => {
          const judge = cell.judges[i]!;
          const calls = r.pairCalls.get(pair.item) ?? [];
          return comparisonOf({
            pair,
            config,
            at,
            judge: judgeMetadata({
              judgeId: judge.label,
              model: judge.model,
              ...(judge.provider !== undefined ? { provider: judge.provider } : {}),
              template: "rubric-studio pairwise",
              templateVersion: calls[0]?.templateVersion ?? "",
              maxTokens: cell.eval.judge.maxTokens,
              evaluatedAt: at,
              calls,
            }),
          });
        }),
      ),
      ...rates,
    },
    pairs,
    wilson: wilsonIntervals(summary),
    positionBias: positionBias(pairs),
    categories: categoryWinners({ names: config.criteria.map((c) => c.name), pairs }),
    ...(config.expect ? { expect: config.expect } : {}),
  };
  const label = (w: string) =>
    w === "A" ? `A (${config.labels.a})` : w === "B" ? `B (${config.labels.b})` : w;
  const bias = outcome.positionBias;
  const biasNote =
    bias.biased > 0
      ? `; position bias in ${bias.biased} of ${bias.comparable} pairs (${percent(bias.rate!)}${bias.favoredFirst > bias.favoredSecond ? ", favouring the first slot" : bias.favoredSecond > bias.favoredFirst ? ", favouring the second slot" : ""})`
      : "";
  const verdict =
    summary.overall_winner === "tie"
      ? `no overall winner: A ${summary.winsA}, B ${summary.winsB}, ties ${summary.ties} of ${summary.total}`
      : `${label(summary.overall_winner)} wins ${summary.overall_winner === "A" ? summary.winsA : summary.winsB} of ${summary.total}, confidence ${summary.confidence.toFixed(2)}`;
  const passed = config.expect === undefined || summary.overall_winner === config.expect;
  const reason = `${verdict}${biasNote}${config.expect && !passed ? `; expected ${label(config.expect)} to win` : ""}`;
  const side = config.expect ?? "B";
  const winRate = (r: JudgeRun) => {
    const s = computePairwiseResult(r.pairs);
    return side === "A" ? s.win_rate_a : s.win_rate_b;
  };
  return {
    ...common,
    status: passed ? "passed" : "failed",
    score: side === "A" ? summary.win_rate_a : summary.win_rate_b,
    display: `${config.labels.a} ${percent(summary.win_rate_a)} · ${config.labels.b} ${percent(summary.win_rate_b)} · tie ${percent(summary.tie_rate)}`,
    reason,
    gates: passed ? [] : [reason],
    judges: judgeRows(winRate),
    pairwise: outcome,
  };
}
