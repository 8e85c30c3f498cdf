import type { EvalResult, Report } from "./results/report";
import type { PriceOf } from "./plan/explain-plan";
import { ReportTotals } from "./trust/report-totals";
import { streamSuite } from "./stream-suite";
import type { EngineDeps, RunOptions } from "./run-types";

// A run with its results collected: the report every caller that needs them
// all gets (resume, regrade, the dashboard, --repeat, calibrate, a worker's
// job). The run itself is stream-suite.ts, which keeps no results; what needs
// all of them collects them here, from the same "result" events.

export type { EngineDeps, RunEvent, RunOptions } from "./run-types";
export type { ReportHead } from "./trust/report-totals";

export async function runSuite(options: RunOptions, deps: EngineDeps): Promise<Report> {
  const results: EvalResult[] = [];
  const head = await streamSuite(options, {
    ...deps,
    onEvent: (event) => {
      if (event.type === "result") results.push(event.result);
      deps.onEvent?.(event);
    },
  });
  return { ...head, results };
}

/** The canonical report over a set of results (a whole run, or a resumed one's stored and new results together). */
export function buildReport(input: {
  results: EvalResult[];
  suite: RunOptions["suite"];
  toolVersion: string;
  startedAt: number;
  finishedAt: number;
  maxCostUsd?: number;
  /** Prices the savings (savings.ts) from the calls' stored token usage. */
  priceOf: PriceOf;
}): Report {
  // Savings are computed as each result is folded in, from its calls (results stored before they existed included).
  const totals = new ReportTotals(input.priceOf);
  const results = input.results.map((r) => totals.add(r));
  return { ...totals.head(input), results };
}

/**
 * 0 when every eval passed (or deferred: not a pass, but no fail), 1 otherwise: a fail,
 * a judge_error, a skip (budget, cancelled, interrupted), or a regression against the baseline.
 */
export function exitCodeOf(report: Pick<Report, "summary" | "baseline">): 0 | 1 {
  const { failed, judgeErrors, skipped } = report.summary;
  return failed + judgeErrors + skipped + (report.baseline?.regressions ?? 0) > 0 ? 1 : 0;
}
