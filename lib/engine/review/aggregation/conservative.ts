import { DECISION_RANK, SCORE_RANK, extreme, type AggregationMethodModule } from "./method";

// The most critical judge wins: the worst score per category, the worst decision.
export const conservative: AggregationMethodModule = {
  name: "conservative",
  description: "the worst score per category (fail < partial < pass) and the worst decision",
  voteCategory: (votes) => extreme(votes, SCORE_RANK, "min"),
  decide: (statuses) => extreme(statuses, DECISION_RANK, "min"),
  passedWhenConditional: (flags) => flags.every(Boolean),
};
