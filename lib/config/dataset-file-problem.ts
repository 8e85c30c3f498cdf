import type { DatasetItem } from "./dataset-schema";

// The result of parsing a dataset file, shared by each format's parser (a
// leaf, so that the parsers and their dispatcher do not import each other).

/**
 * Problems reported per file: a broken file says what is wrong without flooding the terminal (or
 * the memory, for a hostile one).
 */
export const MAX_PROBLEMS = 20;

export interface DatasetFileProblem {
  line: number;
  column: number;
  message: string;
}

export type ParseDatasetResult =
  { ok: true; items: DatasetItem[] } | { ok: false; problems: DatasetFileProblem[] };

/** Where JSON.parse says a syntax error is ("... (line 2 column 6)"), else the start. */
export function jsonErrorPlace(message: string): { line: number; column: number } {
  const match = /line (\d+) column (\d+)/.exec(message);
  return match ? { line: Number(match[1]), column: Number(match[2]) } : { line: 1, column: 1 };
}
