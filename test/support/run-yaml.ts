import { loadSuite, formatIssue } from "../../lib/config/load-suite";
import type { SuiteConfig } from "../../lib/config/types";
import type { ModelPrice } from "../../lib/engine/cost/cost";
import type { EvalResult, Report } from "../../lib/engine/results/report";
import { runSuite, type RunEvent } from "../../lib/engine/run-suite";
import { planSuite } from "../../lib/engine/plan/plan-suite";
import { explainPlan, type ExplainedPlan, type PriceOf } from "../../lib/engine/plan/explain-plan";
import type { JudgePort } from "../../lib/engine/ports/judge-port";
import type { CallScheduler } from "../../lib/engine/grade/call-scheduler";

// Builders shared by the engine tests: a suite from YAML text as a user writes
// it, run through the real engine with a fake judge.

export const DEFAULT_MODEL = "claude-sonnet-4-5";
export const SUITE_FILE = "suite.yaml";

const noPrices: PriceOf = () => undefined;

/** A price that makes every planned call cost exactly `usd`: output tokens only (300 per call by assumption). */
export function flatPrice(usd: number): PriceOf {
  const price: ModelPrice = { inputPerMTok: 0, outputPerMTok: (usd * 1_000_000) / 300 };
  return () => price;
}

/** Loads a suite; a suite that does not load is a broken test, so it throws with the issues. */
export function suiteFrom(yaml: string): SuiteConfig {
  const loaded = loadSuite({ text: yaml, file: SUITE_FILE });
  if (!loaded.ok)
    throw new Error(`the test suite does not load:\n${loaded.issues.map(formatIssue).join("\n")}`);
  return loaded.value;
}

export interface RunYamlOptions {
  judge: JudgePort;
  concurrency?: number;
  maxCostUsd?: number;
  judgeUnavailable?: string;
  priceOf?: PriceOf;
  events?: RunEvent[];
  signal?: AbortSignal;
  cancel?: AbortSignal;
  shutdown?: AbortSignal;
  scheduler?: CallScheduler;
}

export async function runYaml(yaml: string, options: RunYamlOptions): Promise<Report> {
  let clock = Date.parse("2025-06-01T12:00:00Z");
  return runSuite(
    {
      suite: suiteFrom(yaml),
      defaultModel: DEFAULT_MODEL,
      concurrency: options.concurrency ?? 4,
      toolVersion: "0.0.0-test",
      ...(options.maxCostUsd !== undefined ? { maxCostUsd: options.maxCostUsd } : {}),
      ...(options.judgeUnavailable !== undefined
        ? { judgeUnavailable: options.judgeUnavailable }
        : {}),
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.cancel ? { cancel: options.cancel } : {}),
      ...(options.shutdown ? { shutdown: options.shutdown } : {}),
      ...(options.scheduler ? { scheduler: options.scheduler } : {}),
    },
    {
      judge: options.judge,
      now: () => (clock += 1),
      priceOf: options.priceOf ?? noPrices,
      onEvent: (event) => options.events?.push(event),
    },
  );
}

/** Runs a suite of one eval (one cell) and returns its result. */
export async function runOne(yaml: string, options: RunYamlOptions): Promise<EvalResult> {
  const report = await runYaml(yaml, options);
  if (report.results.length !== 1)
    throw new Error(`expected one result, got ${report.results.length}`);
  return report.results[0]!;
}

/** `eval --explain` on a suite. */
export function explainYaml(
  yaml: string,
  options: { priceOf?: PriceOf; judgeUnavailable?: string } = {},
): ExplainedPlan {
  const cells = planSuite({
    suite: suiteFrom(yaml),
    defaultModel: DEFAULT_MODEL,
    ...(options.judgeUnavailable !== undefined
      ? { judgeUnavailable: options.judgeUnavailable }
      : {}),
  });
  return explainPlan(cells, options.priceOf ?? noPrices);
}

/** A criterion result by name, failing loudly when it is missing. */
export function criterion(result: EvalResult, name: string) {
  const found = result.criteria.find((c) => c.name === name);
  if (!found)
    throw new Error(`no criterion "${name}" in ${result.criteria.map((c) => c.name).join(", ")}`);
  return found;
}
