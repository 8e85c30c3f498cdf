import { DECISION_RANK, SCORE_RANK, extreme, type AggregationMethodModule } from "./method";

// The most lenient judge wins: the best score per category, the best decision.
export const optimistic: AggregationMethodModule = {
  name: "optimistic",
  description: "the best score per category and the best decision",
  voteCategory: (votes) => extreme(votes, SCORE_RANK, "max"),
  decide: (statuses) => extreme(statuses, DECISION_RANK, "max"),
  passedWhenConditional: (flags) => flags.some(Boolean),
};
