import type { JudgeMetadata } from "./review-types";

// The Go package's pairwise types (spec 004), field for field in its JSON
// (snake_case here), plus what the Go package leaves to us: both orders, the
// mapping back, the position-bias flag and rate, and Wilson intervals.

export type PairwiseWinner = "A" | "B" | "tie" | "uncertain";

export interface PairwiseCategoryScore {
  category: string;
  winner: PairwiseWinner;
  margin?: number;
  reasoning?: string;
}

export interface PairwiseComparison {
  id?: string;
  input: string;
  output_a: string;
  output_b: string;
  winner: PairwiseWinner;
  confidence?: number;
  reasoning: string;
  category_scores?: PairwiseCategoryScore[];
  judge?: JudgeMetadata;
  metadata?: Record<string, unknown>;
  created_at?: string;
}

export interface PairwiseResult {
  comparisons: PairwiseComparison[];
  win_rate_a: number;
  win_rate_b: number;
  tie_rate: number;
  overall_winner: PairwiseWinner;
  confidence: number;
}

/** One judge's verdicts on one pair, in both orders, mapped to the original order. */
export interface JudgedPair {
  item: string;
  judge: string;
  /** The verdict with A first. */
  original: PairwiseWinner;
  /** The verdict with B first, as the judge gave it (its "A" is our B). */
  swapped: PairwiseWinner;
  /** The swapped verdict mapped back to the original order. */
  swappedMapped: PairwiseWinner;
  /** The two orders combined by the rule in map-verdicts.ts. */
  winner: PairwiseWinner;
  positionBiased: boolean;
  /** When biased and both verdicts chose the same slot: the slot the judge favoured. */
  favoredPosition?: "first" | "second";
  confidence: number;
  reasoning: string;
  categoryScores: PairwiseCategoryScore[];
}

export interface PositionBias {
  /** Biased pairs / pairs where both orders gave a definite verdict (A, B or tie); null when there are none. */
  rate: number | null;
  biased: number;
  comparable: number;
  favoredFirst: number;
  favoredSecond: number;
}

export interface CategoryWinner {
  category: string;
  winsA: number;
  winsB: number;
  ties: number;
  winner: PairwiseWinner;
  /** Mean margin of the winner's wins. */
  margin: number;
}

export interface PairwiseOutcome {
  labels: { a: string; b: string };
  result: PairwiseResult;
  pairs: JudgedPair[];
  wilson: { a: { low: number; high: number }; b: { low: number; high: number } } | null;
  positionBias: PositionBias;
  categories: CategoryWinner[];
  expect?: "A" | "B";
}
