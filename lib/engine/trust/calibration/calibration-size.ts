import { LIMITS, formatCount } from "../../../config/limits";
import type { ConfigIssue, EvalConfig, SuiteConfig } from "../../../config/types";
import { planCalibration, type Probe } from "./plan-calibration";

// A calibration grades one generated eval per labelled item (each anchor,
// category example and annotated dataset item), each once per juror and
// panel model of its eval: the suite's own plan-size check does not see that
// product, so it is checked here by arithmetic on the probes, before any
// probe's rubric is built or any call is made. The CLI's `calibrate` may plan
// what a suite may; a request of the dashboard (Check anchors as you type,
// Run calibration) far less, since its work runs in the server's process.

/** Judge calls a calibration may plan: from the CLI, and in one request of the dashboard. */
export const CALIBRATION_LIMITS = {
  cli: LIMITS.judgeCalls,
  request: LIMITS.requestJudgeCalls,
} as const;

/** Calls one probe of this eval makes: it grades one criterion, category or free-form rubric once per judge. */
const judgesOf = (e: EvalConfig) => (e.judge.panel?.length ?? 1) * e.judge.jury.size;

/** The located error for a calibration that would plan more than `maxJudgeCalls`, at the eval that plans the most; undefined within it. */
export function calibrationSizeIssue(input: {
  suite: SuiteConfig;
  filter?: RegExp;
  select?: (probe: Probe) => boolean;
  maxJudgeCalls: number;
  /** What to do instead, for the message. */
  hint: string;
}): ConfigIssue | undefined {
  const { suite, select } = input;
  const probesOf = new Map<string, number>();
  // Counted, never kept: the select answers false, so no probe's rubric is built.
  planCalibration(suite, input.filter, (probe) => {
    if (!select || select(probe)) probesOf.set(probe.eval, (probesOf.get(probe.eval) ?? 0) + 1);
    return false;
  });
  let probes = 0;
  let total = 0;
  let most: { index: number; calls: number } | undefined;
  suite.evals.forEach((e, index) => {
    const count = probesOf.get(e.name) ?? 0;
    const calls = count * judgesOf(e);
    probes += count;
    total += calls;
    if (calls > (most?.calls ?? 0)) most = { index, calls };
  });
  if (total <= input.maxJudgeCalls || !most) return undefined;
  const at = suite.evals[most.index]!;
  return {
    ...at.location,
    path: ["evals", most.index],
    message: `calibration plans ${formatCount(probes)} labelled items × their judges = ${formatCount(total)} judge calls (eval "${at.name}": ${formatCount(most.calls)}); it may plan at most ${formatCount(input.maxJudgeCalls)}: ${input.hint}`,
    severity: "error",
  };
}
