import type { WhenPredicate } from "../config/types";

/** Evaluates a criterion's `when:` predicate against the candidate. Both parts must hold when both are given. */
export function matchWhen(when: WhenPredicate | undefined, candidate: string): { applies: boolean; reason?: string } {
  if (!when) return { applies: true };
  if (when.contains !== undefined && !candidate.includes(when.contains)) {
    return { applies: false, reason: `when: the candidate does not contain ${JSON.stringify(when.contains)}` };
  }
  if (when.regex !== undefined && !new RegExp(when.regex).test(candidate)) {
    return { applies: false, reason: `when: the candidate does not match /${when.regex}/` };
  }
  return { applies: true };
}
