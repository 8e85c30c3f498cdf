// The resolved form of a pairwise eval (`compare:`).

export interface CompareItem {
  id: string;
  input?: string;
  outputA: string;
  outputB: string;
}

export interface PairwiseConfig {
  /** The free-form question, when the rubric is a string. */
  question?: string;
  /** Criteria to name a winner for, each; their names are the category names of the result. */
  criteria: { name: string; description: string }[];
  items: CompareItem[];
  labels: { a: string; b: string };
  expect?: "A" | "B";
}
