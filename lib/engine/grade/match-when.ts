import type { WhenPredicate } from "../../config/types";
import { compileWhenRegex } from "../../config/when-regex";

// `when.regex` runs on RE2 (linear time in the candidate), never on JS's
// backtracking RegExp: a pattern like `(a+)+$` must not stall a run or the
// dashboard. A suite that loaded has only patterns that compile; each is
// compiled once per process, not once per candidate.
const compiled = new Map<string, ReturnType<typeof compileWhenRegex>>();
const CACHE_LIMIT = 1_000;

function whenRegex(pattern: string): ReturnType<typeof compileWhenRegex> {
  let entry = compiled.get(pattern);
  if (!entry) {
    if (compiled.size >= CACHE_LIMIT) compiled.clear();
    entry = compileWhenRegex(pattern);
    compiled.set(pattern, entry);
  }
  return entry;
}

/** Evaluates a criterion's `when:` predicate against the candidate. Both parts must hold when both are given. */
export function matchWhen(
  when: WhenPredicate | undefined,
  candidate: string,
): { applies: boolean; reason?: string } {
  if (!when) return { applies: true };
  if (when.contains !== undefined && !candidate.includes(when.contains)) {
    return {
      applies: false,
      reason: `when: the candidate does not contain ${JSON.stringify(when.contains)}`,
    };
  }
  if (when.regex !== undefined) {
    const regex = whenRegex(when.regex);
    // The loader rejects such a pattern; a suite built in code that skipped it gets a reason, not a throw.
    if (!regex.ok) return { applies: false, reason: `when: ${regex.message}` };
    if (!regex.regex.test(candidate))
      return { applies: false, reason: `when: the candidate does not match /${when.regex}/` };
  }
  return { applies: true };
}
