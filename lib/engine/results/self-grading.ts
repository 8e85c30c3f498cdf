import { selfGradingMessage } from "../../config/check-self-grading";
import { modelFamilyOf } from "../../config/model-family";
import type { EvalResult, SelfGradingWarning } from "./report";

// The same-family warning of a finished run (issue 11): a judge that graded
// the live run of an agent of its own model family, with the models the run
// really used (defaults included, which the loader cannot see). One warning
// per judge and agent pair, naming the results it concerns.

export function selfGradingWarnings(results: readonly EvalResult[]): SelfGradingWarning[] {
  const byPair = new Map<string, SelfGradingWarning>();
  for (const result of results) addSelfGrading(byPair, result);
  return [...byPair.values()];
}

/** Folds one result into the warnings per judge and agent pair (a run's results one by one, as they stream). */
export function addSelfGrading(
  byPair: Map<string, SelfGradingWarning>,
  result: Pick<EvalResult, "name" | "judgeCalls" | "candidate" | "judges">,
): void {
  const agent = result.candidate.agent?.model;
  const family = agent === undefined ? undefined : modelFamilyOf(agent);
  // Only a run a judge really graded (not a deferred, skipped or failed one).
  if (agent === undefined || !family || result.judgeCalls === 0) return;
  for (const judge of new Set(result.judges.map((j) => j.model))) {
    if (modelFamilyOf(judge)?.id !== family.id) continue;
    const key = JSON.stringify([judge, agent]);
    const found = byPair.get(key) ?? {
      judge,
      agent,
      family: family.label,
      results: [],
      message: selfGradingMessage({ judge, agent, family: family.label }),
    };
    found.results.push(result.name);
    byPair.set(key, found);
  }
}

/** One line per warning, for the text reporters. */
export function selfGradingLines(warnings: readonly SelfGradingWarning[] | undefined): string[] {
  return (warnings ?? []).map(
    (w) =>
      `warning: ${w.message} (${w.results.length === 1 ? "eval" : `${w.results.length} evals`}: ${w.results.join(", ")})`,
  );
}
