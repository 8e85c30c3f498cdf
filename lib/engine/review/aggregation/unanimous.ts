import type { AggregationMethodModule } from "./method";

// Every judge must agree: a split category is partial, a split decision goes
// to a person (human_review).
export const unanimous: AggregationMethodModule = {
  name: "unanimous",
  description: "a category the judges split on is partial; any split decision means human_review",
  voteCategory: (votes) => (votes.every((v) => v === votes[0]) ? votes[0]! : "partial"),
  decide: (statuses) => (statuses.every((s) => s === statuses[0]) ? statuses[0]! : "human_review"),
  passedWhenConditional: (flags) => flags.every(Boolean),
};
