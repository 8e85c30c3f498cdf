import * as z from "zod";
import { nameProblem } from "./clean-name";

// Upper bounds of the rubric language. A suite is hostile input (the editor
// posts every keystroke to the server), so every count has a ceiling, and the
// work that multiplies counts (cells, judge calls) is checked by arithmetic
// before anything is expanded. Generous for real suites, far below what
// stalls a process.

export const LIMITS = {
  /** Characters in one suite file. */
  suiteChars: 2 * 1024 * 1024,
  /** Nesting of YAML collections, aliases expanded. */
  depth: 64,
  /** Nodes that aliases may add to the document when expanded. */
  aliasExpansion: 100_000,
  // As many as the cells a suite may plan: every eval is at least one cell.
  evals: 10_000,
  criteria: 100,
  anchors: 50,
  categories: 100,
  treeDepth: 32,
  jury: 25,
  panel: 10,
  /** Values per matrix axis (models, prompts, agents). */
  matrixAxis: 50,
  datasetItems: 10_000,
  /**
   * Bytes in one data file (a dataset: ReferenceDataset JSON, CSV or JSONL; a Go report for `report
   * FILE`), checked before it is read.
   */
  datasetFileBytes: 32 * 1024 * 1024,
  /** Columns in a CSV dataset's header. */
  datasetColumns: 1_000,
  compareItems: 1_000,
  /** Names, ids and model names. */
  nameChars: 200,
  /** A reviewer's name (given at login, or remembered by the browser), in code points. */
  reviewerChars: 80,
  maxResultChars: 1_000_000,
  /** Cells one suite plans: evals × dataset items × matrix cells. */
  cells: 10_000,
  /** Judge calls one suite plans: cells × judges × calls per judge. */
  judgeCalls: 100_000,
  /** `eval --repeat N`: every judge call N times. */
  repeats: 100,
  /**
   * Points of a likert scale (max − min + 1). Each point is a label button, a
   * row and a column of the calibration confusion matrix (points² cells), so
   * the range is bounded: 1..5, 1..7, 0..10 and 0..100 all fit.
   */
  likertPoints: 101,
  /** A criterion's or a category's weight: past it a weighted sum overflows into Infinity and the score into NaN. */
  weight: 1_000_000,
  /** Judge calls one request of the dashboard may make in its own process (Check anchors, Run calibration): labelled items × jurors × panel models. */
  requestJudgeCalls: 5_000,
  /** `--concurrency N` of eval, calibrate, review and worker: calls in flight, and the jobs a worker claims at once. */
  concurrency: 1_000,
} as const;

/**
 * Bounds on what a suite may plan, by where it comes from. What a browser posts (the editor, the
 * validate API, Check anchors, a dashboard run, a dataset upload) is hostile and keeps LIMITS';
 * a file a person runs from the CLI is theirs, and gets FILE_PLAN_LIMITS (raised by the settings
 * named in `raise`). loadSuite takes the browser's unless a caller passes others: only lib/cli does.
 */
export interface PlanLimits {
  cells: number;
  judgeCalls: number;
  /** Items of one dataset file (inline items keep LIMITS.datasetItems: the suite file bounds them). */
  datasetItems: number;
  /** What raises each bound, said after it in an error; none for what a browser posts. */
  raise?: { cells: string; judgeCalls: string };
}

/** What a browser posts: the editor's bounds. */
export const BROWSER_PLAN_LIMITS: PlanLimits = {
  cells: LIMITS.cells,
  judgeCalls: LIMITS.judgeCalls,
  datasetItems: LIMITS.datasetItems,
};

/**
 * A file run from the CLI: sized for a million judge calls with room to spare (datasets are
 * streamed and cells planned lazily, so memory does not grow with these).
 */
export const FILE_PLAN_LIMITS = {
  cells: 10_000_000,
  judgeCalls: 30_000_000,
  /** Bytes of a JSONL or CSV dataset file, which is streamed, never held whole. */
  streamedFileBytes: 16 * 1024 * 1024 * 1024,
  /** Bytes of one line (a CSV record) of such a file: only a line at a time is held. */
  streamedLineBytes: 64 * 1024 * 1024,
} as const;

/** zod's error option for an upper bound: "a jury has at most 25 jurors". */
export function atMost(n: number, what: string): { error: string } {
  return { error: `${what.replace("{n}", formatCount(n))}` };
}

/** A name, id or model name: short enough to read in a report. */
export const nameString = z
  .string()
  .min(1)
  .max(LIMITS.nameChars, atMost(LIMITS.nameChars, "at most {n} characters"))
  .superRefine((name, ctx) => {
    const problem = nameProblem(name);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  });

/** A weight: above 0, and small enough that a rubric's weighted sum stays finite. */
export const weightSchema = z
  .number()
  .gt(0, { error: "weight must be greater than 0" })
  .max(LIMITS.weight, atMost(LIMITS.weight, "weight must be at most {n}"));

/**
 * Whether a likert band is within the language's bound on points. The engine
 * asks it too, of scales stored before the bound (a run's results keep their
 * rubric's scale), so no stored text makes per-point work unbounded.
 */
export function likertFits(band: { min: number; max: number }): boolean {
  return band.max - band.min + 1 <= LIMITS.likertPoints;
}

/** 12345 → "12,345", so that limits and products read at a glance. */
export function formatCount(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  const rounded = Math.round(n);
  // What toLocaleString("en-US") prints, without it: its first call sets up
  // ICU's number formatting, ~10 ms of CPU that every command would pay at
  // start-up (the schema formats its limits as it loads). Past 1e21 String()
  // switches to exponents, so those (never a real count) go to ICU.
  if (Math.abs(rounded) >= 1e21) return rounded.toLocaleString("en-US");
  const digits = String(Math.abs(rounded)).replace(/\B(?=(\d{3})+$)/g, ",");
  return rounded < 0 || Object.is(rounded, -0) ? `-${digits}` : digits;
}
