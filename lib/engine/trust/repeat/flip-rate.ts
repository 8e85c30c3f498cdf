import type { EvalResult } from "../../results/report";
import type { FlipRate } from "../../results/trust";

// How stable the judge is: with `eval --repeat N` every judge call is made N
// times, and per criterion the flip rate is the share of items (eval cells)
// whose pass / fail changed between repeats. "(eval)" is the eval's own
// pass / fail. Items graded in fewer than two repeats are left out.

export const EVAL_ITEM = "(eval)";

/** `runs[k]` is the k-th repeat's results; results are matched across repeats by id. */
export function flipRates(runs: EvalResult[][]): FlipRate[] {
  const byKey = new Map<
    string,
    { eval: string; item: string; outcomes: Map<string, Set<boolean>> }
  >();
  const note = (evalName: string, item: string, id: string, passed: boolean | null) => {
    if (passed === null) return;
    const key = `${evalName}\u0000${item}`;
    const entry = byKey.get(key) ?? {
      eval: evalName,
      item,
      outcomes: new Map<string, Set<boolean>>(),
    };
    const seen = entry.outcomes.get(id) ?? new Set<boolean>();
    seen.add(passed);
    entry.outcomes.set(id, seen);
    byKey.set(key, entry);
  };
  const counts = new Map<string, Map<string, number>>();
  for (const results of runs) {
    for (const r of results) {
      if (r.status !== "passed" && r.status !== "failed") continue;
      const graded = counts.get(r.id) ?? new Map<string, number>();
      counts.set(r.id, graded);
      const mark = (item: string, passed: boolean | null) => {
        if (passed === null) return;
        graded.set(item, (graded.get(item) ?? 0) + 1);
        note(r.eval, item, r.id, passed);
      };
      mark(EVAL_ITEM, r.status === "passed");
      for (const c of r.criteria) if (c.status === "graded") mark(c.name, c.passed);
    }
  }
  return [...byKey.values()].map(({ eval: evalName, item, outcomes }) => {
    const ids = [...outcomes.keys()].filter((id) => (counts.get(id)?.get(item) ?? 0) >= 2);
    const flippedIds = ids.filter((id) => outcomes.get(id)!.size > 1);
    return {
      eval: evalName,
      item,
      items: ids.length,
      flipped: flippedIds.length,
      rate: ids.length > 0 ? flippedIds.length / ids.length : null,
      flippedIds,
    };
  });
}
