import type { JudgePort } from "./ports/judge-port";
import type { EvalResult, Report } from "./results/report";
import { buildReport, runSuite, type EngineDeps, type RunOptions } from "./run-suite";
import { flipRates } from "./trust/repeat/flip-rate";
import type { RepeatSummary } from "./results/trust";

// `eval --repeat N`: the whole run N times, one after the other, sharing one
// budget; every result appears once per repeat ("name [repeat 2/3]"), and the
// report adds the flip rate per criterion. Each repeat asks with a different
// sample number, which the judge cache keys on, so a cache can never hand
// every repeat the same stored verdict.

/** Repeats' sample numbers are this far apart; jurors count from 1 within it. */
export const REPEAT_SAMPLE_STRIDE = 1000;

export async function runRepeated(
  options: RunOptions & { repeat: number },
  deps: EngineDeps,
): Promise<Report & { repeat: RepeatSummary }> {
  const startedAt = deps.now();
  const runs: EvalResult[][] = [];
  let spent = 0;
  for (let k = 1; k <= options.repeat; k++) {
    const offset = (k - 1) * REPEAT_SAMPLE_STRIDE;
    const judge: JudgePort = {
      grade: (request, context) =>
        deps.judge.grade({ ...request, sample: request.sample + offset }, context),
    };
    const budget =
      options.maxCostUsd === undefined
        ? {}
        : { maxCostUsd: Math.max(0, options.maxCostUsd - spent) };
    const report = await runSuite({ ...options, ...budget }, { ...deps, judge });
    spent += report.summary.costUsd;
    runs.push(report.results);
    if (options.signal?.aborted) break;
  }
  const results = runs.flatMap((results, i) =>
    results.map((r) => ({
      ...r,
      id: `${r.id}::repeat=${i + 1}`,
      name: `${r.name} [repeat ${i + 1}/${options.repeat}]`,
    })),
  );
  const report = buildReport({
    results,
    suite: options.suite,
    toolVersion: options.toolVersion,
    startedAt,
    finishedAt: deps.now(),
    priceOf: deps.priceOf,
    ...(options.maxCostUsd !== undefined ? { maxCostUsd: options.maxCostUsd } : {}),
  });
  return { ...report, repeat: { runs: runs.length, flips: flipRates(runs) } };
}
