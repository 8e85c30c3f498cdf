import type { ScoreValue } from "../../../config/category-types";
import type { AggregationMethod, DecisionStatus } from "../../results/review-types";

// The contract of a multi-judge aggregation method (one module each, listed in
// registry.ts): how one category's votes become one score, and how the
// judges' decisions become the consolidated one.

export interface AggregationMethodModule {
  name: AggregationMethod;
  /** One line for help texts and the README. */
  description: string;
  /** One category's score from the judges' votes (never empty). */
  voteCategory(votes: ScoreValue[]): ScoreValue;
  /** The consolidated decision status from each judge's decision status (never empty). */
  decide(statuses: DecisionStatus[]): DecisionStatus;
  /**
   * Whether a consolidated "conditional" passed, from the passed flags of the
   * judges whose own decision was conditional (a conditional decision can go
   * either way: too many medium findings make it not passed).
   */
  passedWhenConditional(flags: boolean[]): boolean;
}

/** fail < partial < pass. */
export const SCORE_RANK: Record<ScoreValue, number> = { fail: 0, partial: 1, pass: 2 };
/** Worst to best. human_review ranks below conditional: it cannot pass without a person. */
export const DECISION_RANK: Record<DecisionStatus, number> = {
  fail: 0,
  human_review: 1,
  conditional: 2,
  pass: 3,
};

export function countVotes<T extends string>(votes: T[]): Map<T, number> {
  const counts = new Map<T, number>();
  for (const vote of votes) counts.set(vote, (counts.get(vote) ?? 0) + 1);
  return counts;
}

/** The value more than half of the votes gave, if any. */
export function strictMajority<T extends string>(votes: T[]): T | undefined {
  for (const [value, count] of countVotes(votes)) if (count > votes.length / 2) return value;
  return undefined;
}

export function extreme<T extends string>(
  votes: T[],
  rank: Record<T, number>,
  pick: "min" | "max",
): T {
  return votes.reduce((best, vote) =>
    (pick === "min" ? rank[vote] < rank[best] : rank[vote] > rank[best]) ? vote : best,
  );
}
