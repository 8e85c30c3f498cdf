import { strictMajority, type AggregationMethodModule } from "./method";

// More than half of the judges decide; without such a majority a category is
// partial and the decision goes to a person (human_review).
export const majority: AggregationMethodModule = {
  name: "majority",
  description:
    "a category takes the score more than half of the judges gave (else partial); no majority decision means human_review",
  voteCategory: (votes) => strictMajority(votes) ?? "partial",
  decide: (statuses) => strictMajority(statuses) ?? "human_review",
  passedWhenConditional: (flags) => flags.filter(Boolean).length > flags.length / 2,
};
