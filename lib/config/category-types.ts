// The resolved form of a category rubric (the Go package's RubricSet), with
// defaults applied. The engine grades by it; lib/config/rubric-set-json.ts
// turns it into the Go JSON wire format and back.

export type ScoreValue = "pass" | "partial" | "fail";
export type Severity = "critical" | "high" | "medium" | "low" | "info";
export type CategoryScaleType = "categorical" | "checklist" | "binary";
export type EvaluationType = "analytic" | "holistic";

export interface ScaleOption {
  value: ScoreValue;
  label: string;
  criteria: string[];
}

export interface ChecklistThreshold {
  /** "all" or how many required items must be present. */
  required: "all" | number;
  /** How many optional items must be present. */
  optional: number;
}

export interface CategoryScale {
  type: CategoryScaleType;
  options: ScaleOption[];
  requiredItems: string[];
  optionalItems: string[];
  passingThreshold?: ChecklistThreshold;
}

export interface CategoryExample {
  excerpt: string;
  reasoning: string;
}

export interface ReviewCategory {
  id: string;
  name: string;
  description: string;
  weight: number;
  required: boolean;
  scale: CategoryScale;
  evaluationPrompt?: string;
  examples: Partial<Record<ScoreValue, CategoryExample>>;
}

/** Most findings allowed per severity; -1 is unlimited. */
export interface FindingLimits {
  critical: number;
  high: number;
  medium: number;
  /** Kept for the wire format only: the decision rules never limit low findings. */
  low?: number;
}

export interface ReviewPassCriteria {
  minCategoriesPassing: "all" | "all_required" | number;
  maxFindings: FindingLimits;
}

export interface RubricSetConfig {
  id: string;
  name: string;
  version: string;
  description?: string;
  reviewType: string;
  evaluationType: EvaluationType;
  passCriteria: ReviewPassCriteria;
  categories: ReviewCategory[];
  judgePrompt?: string;
  metadata?: { createdAt?: string; author?: string; basedOn?: string[] };
}

/** Go's DefaultPassCriteria: every required category passes, no critical or high finding. */
export const DEFAULT_PASS_CRITERIA: ReviewPassCriteria = {
  minCategoriesPassing: "all_required",
  maxFindings: { critical: 0, high: 0, medium: -1, low: -1 },
};

/** The scale a category gets when it names none: pass / partial / fail. */
export const DEFAULT_CATEGORICAL_OPTIONS: ScaleOption[] = [
  { value: "pass", label: "Pass", criteria: [] },
  { value: "partial", label: "Partial", criteria: [] },
  { value: "fail", label: "Fail", criteria: [] },
];

/** A document under review: read from a file by the CLI, or given inline. */
export interface DocumentConfig {
  file?: string;
  text?: string;
  id?: string;
  title?: string;
  version?: string;
}
