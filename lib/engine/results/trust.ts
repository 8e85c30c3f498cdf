import type { MeasurementLevel } from "../../stats/registry";
import type { KappaWeights } from "../../stats/cohen-kappa";
import type { TokenUsage } from "../ports/judge-port";

// What the trust checks report, beside the results: how far the judges agree
// (agreement/), how stable they are over repeats (repeat/), and how they match
// the labelled anchors (calibration/). Types only, so that the report
// (./report.ts) and the modules computing these stand on them, never on
// each other.

// ── Judge agreement (agreement/judge-agreement.ts) ──

export type AgreementValue = { value: number } | { value: null; note: string };

export interface JudgeAgreement {
  eval: string;
  /** A criterion or category name, "(rubric)" for a free-form or tree rubric, "(all criteria)" pooled. */
  item: string;
  level: MeasurementLevel;
  judges: string[];
  /** Items rated by at least two judges. */
  units: number;
  exactAgreement: AgreementValue;
  krippendorffAlpha: AgreementValue & { ci95?: { low: number; high: number } };
  /** For categorical scales (every level but interval scores). */
  fleissKappa?: AgreementValue;
}

// ── Flip rates over repeats (repeat/flip-rate.ts) ──

export interface FlipRate {
  eval: string;
  /** A criterion or category name, or "(eval)". */
  item: string;
  /** Items graded in at least two repeats. */
  items: number;
  flipped: number;
  rate: number | null;
  /** The ids of the items that flipped, for a person to look at. */
  flippedIds: string[];
}

export interface RepeatSummary {
  runs: number;
  flips: FlipRate[];
}

// ── Calibration against labelled anchors (calibration/) ──

export type CalibrationScale = "unit" | "boolean" | "letter" | "likert" | "categorical";

/** One judge's own reading of an anchor or item. */
export interface JudgeReading {
  judge: string;
  score: number | null;
  reasoning: string;
}

export interface CalibrationItem {
  id: string;
  /** person: a label given in the review queue (the annotator is its reviewer). */
  source: "anchor" | "example" | "dataset" | "person";
  annotator?: string;
  label: number;
  /** The judge's score in 0..1, mean over jurors and panel models; null when it could not be graded. */
  judged: number | null;
  /** judged - label. */
  error: number | null;
  outlier: boolean;
  /** The judge's reasoning; with several judges, each one's on its own line, led by its name and score (see `judges`). */
  reasoning: string;
  /** Several judges (a jury or a panel): each one's own score and reasoning, which `judged` is the mean of. */
  judges?: JudgeReading[];
  /** What was graded (the anchor's response...): shown beside an outlier. */
  text: string;
}

export interface CriterionCalibration {
  eval: string;
  item: string;
  /** Set when the labels are not people's: the annotators' annotator_type (llm, rule...), one row per type (calibration/labellers.ts). */
  labelledBy?: string;
  scale: CalibrationScale;
  items: CalibrationItem[];
  graded: number;
  mae: number | null;
  /** With a bootstrap 95% interval where it is computed (people's labels against the judges). */
  kappa: {
    weights: KappaWeights;
    value: number | null;
    note?: string;
    ci95?: { low: number; high: number };
  };
  /** Rows: the labelled category; columns: the judged one. */
  confusion: { categories: string[]; matrix: number[][] };
  outliers: number;
}

export interface CalibrationResult {
  tolerance: number;
  maxError?: number;
  criteria: CriterionCalibration[];
  /** Criteria whose MAE is above maxError (empty without one). */
  overMaxError: { eval: string; item: string; labelledBy?: string; mae: number }[];
  probes: number;
  ungraded: number;
  judgeCalls: number;
  /** Verdicts the judge cache answered, at no cost (judgeCalls counts only calls paid for). */
  reusedCalls?: number;
  /** Probes a budget (or a cancel) kept from being graded. */
  skipped?: number;
  costUsd: number;
  usage: TokenUsage;
}
