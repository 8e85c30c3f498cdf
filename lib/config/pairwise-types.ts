// The resolved form of a pairwise eval (`compare:`).

export interface CompareItem {
  id: string;
  input?: string;
  outputA: string;
  outputB: string;
}

/** The coordinates that pick one side's cells of an eval's matrix (what is left out is taken from the other side). */
export interface CellSelector {
  agent?: string;
  /** 1-based position on the matrix's prompts axis. */
  prompt?: number;
}

/** `compare: { eval, a, b }`: the pairs are that eval's cells, matched by the coordinates neither side names. */
export interface CellComparison {
  eval: string;
  a: CellSelector;
  b: CellSelector;
}

export interface PairwiseConfig {
  /** The free-form question, when the rubric is a string. */
  question?: string;
  /** Criteria to name a winner for, each; their names are the category names of the result. */
  criteria: { name: string; description: string }[];
  /** The pairs. For a comparison of cells, filled in by the planner (and, for live runs, by the grader). */
  items: CompareItem[];
  cells?: CellComparison;
  labels: { a: string; b: string };
  expect?: "A" | "B";
}
