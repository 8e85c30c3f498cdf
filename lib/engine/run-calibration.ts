import type { SuiteConfig } from "../config/types";
import type { EvalResult, Report } from "./results/report";
import { buildReport, runSuite, type EngineDeps, type RunOptions } from "./run-suite";
import { planCalibration, type Probe } from "./trust/calibration/plan-calibration";
import { calibrateItem, DEFAULT_TOLERANCE } from "./trust/calibration/calibration-stats";
import type { CalibrationItem, CalibrationResult, JudgeReading } from "./results/trust";
import { overMaxErrorOf } from "./trust/calibration/labellers";

// `rubric-studio calibrate`: how well the configured judge matches the
// labels, per criterion (people's apart from an llm's or a rule's: labellers.ts). Grades the probes as a normal run does,
// then compares. The result is a plain object: the CLI prints it, the
// dashboard's calibration view draws it.

function judgedOf(
  result: EvalResult,
  probe: Probe,
): { judged: number | null; reasoning: string; judges?: JudgeReading[] } {
  if (result.status !== "passed" && result.status !== "failed")
    return { judged: null, reasoning: result.reason };
  if (probe.scale === "categorical") {
    const category = result.review?.report.categories[0];
    const points = category ? { pass: 1, partial: 0.5, fail: 0 }[category.score] : null;
    return { judged: points, reasoning: category?.reasoning ?? "" };
  }
  // The judge's own score (a guard's before inversion): that is what an anchor's label calibrates.
  const verdicts = result.criteria[0]?.verdicts ?? [];
  const scores = (
    verdicts.length > 0 ? verdicts.map((v) => v.score) : result.judges.map((j) => j.score)
  ).filter((s): s is number => s !== null);
  const judged = scores.length > 0 ? scores.reduce((a, b) => a + b, 0) / scores.length : null;
  if (verdicts.length <= 1) return { judged, reasoning: verdicts[0]?.reasoning || result.reason };
  // Several judges: the mean is theirs together, and each one's reasoning stays with its own score.
  const judges = verdicts.map((v) => ({
    judge: v.judge,
    score: v.score,
    reasoning: v.error ? `error: ${v.error}` : v.reasoning,
  }));
  return {
    judged,
    judges,
    reasoning: judges
      .map((j) => `${j.judge} (${j.score === null ? "—" : j.score.toFixed(2)}): ${j.reasoning}`)
      .join("\n"),
  };
}

export async function runCalibration(
  options: Omit<RunOptions, "suite" | "filter"> & {
    suite: SuiteConfig;
    filter?: RegExp;
    select?: (probe: Probe) => boolean;
    tolerance?: number;
    maxError?: number;
  },
  deps: EngineDeps,
): Promise<CalibrationResult> {
  const tolerance = options.tolerance ?? DEFAULT_TOLERANCE;
  const { suite, probes } = planCalibration(options.suite, options.filter, options.select);
  const { filter: _f, select: _s, tolerance: _t, maxError: _m, ...run } = options;
  const report = probes.length > 0 ? await runSuite({ ...run, suite }, deps) : undefined;
  const byName = new Map((report?.results ?? []).map((r) => [r.eval, r]));

  const groups = new Map<string, { probe: Probe; items: CalibrationItem[] }>();
  for (const probe of probes) {
    const result = byName.get(probe.name);
    const { judged, reasoning, judges } = result
      ? judgedOf(result, probe)
      : { judged: null, reasoning: "not graded", judges: undefined };
    const error = judged === null ? null : judged - probe.label;
    const item: CalibrationItem = {
      id: probe.id,
      source: probe.source,
      ...(probe.annotator ? { annotator: probe.annotator } : {}),
      label: probe.label,
      judged,
      error,
      outlier: error !== null && Math.abs(error) > tolerance + 1e-9,
      reasoning,
      ...(judges ? { judges } : {}),
      text: probe.text,
    };
    const key = `${probe.eval}\u0000${probe.item}\u0000${probe.labelledBy ?? ""}`;
    const group = groups.get(key) ?? { probe, items: [] };
    group.items.push(item);
    groups.set(key, group);
  }
  const criteria = [...groups.values()].map(({ probe, items }) => ({
    ...calibrateItem({
      eval: probe.eval,
      item: probe.item,
      scale: probe.scale,
      ...(probe.likert ? { likert: probe.likert } : {}),
      threshold: probe.threshold,
      items,
    }),
    ...(probe.labelledBy ? { labelledBy: probe.labelledBy } : {}),
  }));
  const overMaxError = overMaxErrorOf(criteria, options.maxError);
  return {
    tolerance,
    ...(options.maxError !== undefined ? { maxError: options.maxError } : {}),
    criteria,
    overMaxError,
    probes: probes.length,
    ungraded: criteria.reduce((n, c) => n + c.items.length - c.graded, 0),
    judgeCalls: report?.summary.judgeCalls ?? 0,
    ...(report?.summary.reused ? { reusedCalls: report.summary.reused.calls } : {}),
    ...(report?.summary.skipped ? { skipped: report.summary.skipped } : {}),
    costUsd: report?.summary.costUsd ?? 0,
    usage: report?.summary.usage ?? { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
  };
}

/**
 * The canonical report of a calibration, for the json, md and html reporters:
 * no eval results (the probes are not evals a person wrote, and their pass /
 * fail against a threshold means nothing here), the calibration itself, and
 * the judge calls, tokens and cost it took.
 */
export function calibrationReport(input: {
  calibration: CalibrationResult;
  suite: SuiteConfig;
  toolVersion: string;
  startedAt: number;
  finishedAt: number;
}): Report {
  // No results, so no calls to price: the probes' calls are summed in the calibration.
  const base = buildReport({
    results: [],
    suite: input.suite,
    toolVersion: input.toolVersion,
    startedAt: input.startedAt,
    finishedAt: input.finishedAt,
    priceOf: () => undefined,
  });
  const { calibration } = input;
  return {
    ...base,
    summary: {
      ...base.summary,
      judgeCalls: calibration.judgeCalls,
      costUsd: calibration.costUsd,
      usage: calibration.usage,
    },
    calibration,
  };
}
