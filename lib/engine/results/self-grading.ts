import { selfGradingMessage } from "../../config/check-self-grading";
import { modelFamilyOf } from "../../config/model-family";
import { plural } from "./format-score";
import { formatCount } from "../../config/limits";
import type { EvalResult, SelfGradingWarning } from "./report";

// The same-family warning of a finished run (issue 11): a judge that graded
// the live run of an agent of its own model family, with the models the run
// really used (defaults included, which the loader cannot see). One warning
// per judge and agent pair, naming the first results it concerns and counting
// them all (a run of a million results must not list, nor hold, every name).

/** The results a warning names; the others are counted. */
export const SELF_GRADING_NAMES = 20;

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
      count: 0,
      message: selfGradingMessage({ judge, agent, family: family.label }),
    };
    if (found.results.length < SELF_GRADING_NAMES) found.results.push(result.name);
    found.count = (found.count ?? 0) + 1;
    byPair.set(key, found);
  }
}

/** One line per warning, for the text reporters. */
export function selfGradingLines(warnings: readonly SelfGradingWarning[] | undefined): string[] {
  return (warnings ?? []).map((w) => {
    const count = w.count ?? w.results.length;
    const more = count - w.results.length;
    const named = `${w.results.join(", ")}${more > 0 ? ` and ${formatCount(more)} more` : ""}`;
    return `warning: ${w.message} (${count === 1 ? "eval" : plural(count, "eval")}: ${named})`;
  });
}
