import type { EvalResult, EvalStatus } from "../engine/results/report";

// The SARIF reporter's rules (sarif.ts): one per outcome that needs attention, in the order the
// run's `tool.driver.rules` lists them (a result's `ruleIndex` is its place here).

export type Level = "error" | "warning" | "note";

export interface RuleSpec {
  id: string;
  name: string;
  short: string;
  full: string;
  level: Level;
}

// One rule per outcome that needs attention; a skip's rule names its cause.
export type RuleKey =
  | Exclude<EvalStatus, "passed" | "skipped">
  | "skipped-budget"
  | "skipped-cancelled"
  | "skipped-interrupted"
  | "skipped";

export const RULES: Record<RuleKey, RuleSpec> = {
  failed: {
    id: "rubric/failed",
    name: "EvalFailed",
    short: "Eval scored below its threshold or failed a gate",
    full:
      "The judged score was below the eval's threshold, or a required criterion failed, a " +
      "guard triggered or cited evidence was missing.",
    level: "error",
  },
  judge_error: {
    id: "rubric/judge-error",
    name: "JudgeError",
    short: "The judge did not return a usable verdict",
    full:
      "The judge model's reply did not parse as a verdict, or the call failed after retries; " +
      "the eval was not graded.",
    level: "error",
  },
  "skipped-budget": {
    id: "rubric/skipped-budget",
    name: "SkippedBudget",
    short: "Eval skipped because the cost budget was spent",
    full: "The run's --max-cost budget was spent before this eval was graded; it was neither passed nor failed.",
    level: "warning",
  },
  "skipped-cancelled": {
    id: "rubric/skipped-cancelled",
    name: "SkippedCancelled",
    short: "Eval skipped because the run was cancelled",
    full:
      "A cancel request (the dashboard, rubric-studio cancel) stopped the run's judge calls " +
      "before this eval was graded; it was neither passed nor failed.",
    level: "warning",
  },
  "skipped-interrupted": {
    id: "rubric/skipped-interrupted",
    name: "SkippedInterrupted",
    short: "Eval skipped because the run was interrupted",
    full: "The run was interrupted (Ctrl-C) before this eval was graded; it was neither passed nor failed.",
    level: "warning",
  },
  skipped: {
    id: "rubric/skipped",
    name: "Skipped",
    short: "Eval skipped before it was graded",
    full: "The run stopped scheduling judge calls before this eval was graded; it was neither passed nor failed.",
    level: "warning",
  },
  deferred: {
    id: "rubric/deferred",
    name: "Deferred",
    short: "Eval deferred: no judge model or no candidate",
    full:
      "No model API key was configured, or the candidate could not be produced, so the eval " +
      "was reported with a note instead of graded.",
    level: "note",
  },
};

export const RULE_ORDER: readonly RuleKey[] = [
  "failed",
  "judge_error",
  "skipped-budget",
  "skipped-cancelled",
  "skipped-interrupted",
  "skipped",
  "deferred",
];

export function ruleKeyOf(result: EvalResult): RuleKey {
  if (result.status === "skipped")
    return result.skipKind ? `skipped-${result.skipKind}` : "skipped";
  return result.status as Exclude<RuleKey, `skipped${string}`>;
}
