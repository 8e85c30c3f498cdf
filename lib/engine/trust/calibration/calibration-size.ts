import { LIMITS, formatCount } from "../../../config/limits";
import { evalJudgeCalls } from "../../../config/plan-size";
import type { ConfigIssue, SuiteConfig } from "../../../config/types";
import type { Probe } from "./plan-calibration";

// A calibration grades one generated eval per labelled item (each anchor,
// category example and annotated dataset item), each through the eval's
// jury and panel: the suite's own plan-size check does not see that product,
// so it is checked here, by arithmetic on the plan, before any call is made.
// The CLI's `calibrate` may plan what a suite may; a request of the dashboard
// (Check anchors as you type, Run calibration) far less, since its work runs
// in the server's process.

/** Judge calls a calibration may plan: from the CLI, and in one request of the dashboard. */
export const CALIBRATION_LIMITS = {
  cli: LIMITS.judgeCalls,
  request: LIMITS.requestJudgeCalls,
} as const;

/** The located error for a calibration plan over `maxJudgeCalls`, at the eval that plans the most; undefined within it. */
export function calibrationSizeIssue(input: {
  /** The suite as loaded: where the error points. */
  source: SuiteConfig;
  /** What planCalibration made of it. */
  planned: { suite: SuiteConfig; probes: Probe[] };
  maxJudgeCalls: number;
  /** What to do instead, for the message. */
  hint: string;
}): ConfigIssue | undefined {
  const { source, planned } = input;
  const byEval = new Map<string, number>();
  let total = 0;
  planned.suite.evals.forEach((generated, i) => {
    const calls = evalJudgeCalls(generated, planned.suite);
    total += calls;
    const name = planned.probes[i]?.eval ?? generated.name;
    byEval.set(name, (byEval.get(name) ?? 0) + calls);
  });
  if (total <= input.maxJudgeCalls) return undefined;
  const [name, calls] = [...byEval].reduce((a, b) => (b[1] > a[1] ? b : a));
  const index = source.evals.findIndex((e) => e.name === name);
  const at = source.evals[index] ?? source.evals[0]!;
  return {
    ...at.location,
    path: ["evals", Math.max(index, 0)],
    message: `calibration plans ${formatCount(planned.probes.length)} labelled items × their judges = ${formatCount(total)} judge calls (eval "${name}": ${formatCount(calls)}); it may plan at most ${formatCount(input.maxJudgeCalls)}: ${input.hint}`,
    severity: "error",
  };
}
