import { INTERNAL_ERROR } from "../../../lib/config/load-suite";
import { checkDraft } from "../../../lib/engine/plan/check-draft";
import { explainPlan } from "../../../lib/engine/plan/explain-plan";
import { renderExplain } from "../../../lib/engine/plan/render-explain";
import { planSuite } from "../../../lib/engine/plan/plan-suite";
import { loadSuite } from "../../../lib/config/load-suite";
import type { ConfigIssue, SuiteConfig } from "../../../lib/config/types";
import { unstorableAt, unstorableStrings } from "../../../lib/config/storable-text";
import { calibrateItem } from "../../../lib/engine/trust/calibration/calibration-stats";
import { labelScaleOf } from "../../../lib/engine/trust/people/label-scale";

// One fuzz case, as the CLI and the dashboard take a suite: the loader, then
// the plan step (`eval --explain`), the editor's check, and the per-point work
// of calibration and labelling on each eval's scale. What counts as a
// failure: anything thrown, a loader bug reported as an issue, an issue
// without a line and column.

export type CaseOutcome = "valid" | "invalid" | "crash" | "unlocated";

export interface CaseResult {
  outcome: CaseOutcome;
  /** The error or the unlocated issue, for a failure. */
  detail?: string;
  ms: number;
}

const located = (issue: ConfigIssue) =>
  Number.isInteger(issue.line) &&
  issue.line >= 1 &&
  Number.isInteger(issue.column) &&
  issue.column >= 1;

/** What Check anchors, Run calibration and the labelling page do per point of each eval's scale. */
function perPointWork(suite: SuiteConfig): void {
  const item = (id: string, label: number) => ({
    id,
    source: "anchor" as const,
    text: id,
    label,
    judged: 1 - label,
    error: 1 - 2 * label,
    outlier: true,
    reasoning: "",
  });
  for (const e of suite.evals) {
    const { scale } = e.rubric;
    labelScaleOf({ rubricKind: e.rubric.kind, scale });
    calibrateItem({
      eval: e.name,
      item: "fuzz",
      scale: e.rubric.kind === "categories" ? "categorical" : scale.kind,
      ...(scale.kind === "likert" ? { likert: scale } : {}),
      threshold: 0.7,
      items: [item("a", 0), item("b", 1)],
    });
  }
}

export function runFuzzCase(text: string): CaseResult {
  const started = performance.now();
  const done = (outcome: CaseOutcome, detail?: string): CaseResult => ({
    outcome,
    ...(detail !== undefined ? { detail } : {}),
    ms: performance.now() - started,
  });
  try {
    const loaded = loadSuite({ text, file: "fuzz.yaml" });
    const issues = loaded.ok ? loaded.warnings : loaded.issues;
    const bug = issues.find((issue) => issue.message.startsWith(INTERNAL_ERROR));
    if (bug) return done("crash", bug.message);
    const unlocated = issues.find((issue) => !located(issue));
    if (unlocated) return done("unlocated", JSON.stringify(unlocated));
    if (!loaded.ok) return done("invalid");
    // A suite that loads must be storable as it is, text and values: a NUL or an unpaired surrogate failed its run in Postgres.
    if (unstorableAt(text) !== -1 || unstorableStrings(loaded.value, 1).length > 0)
      return done(
        "crash",
        "a valid suite holds text Postgres cannot store (a NUL or an unpaired surrogate)",
      );
    renderExplain(
      explainPlan(
        planSuite({ suite: loaded.value, defaultModel: "claude-sonnet-4-6" }),
        () => undefined,
      ),
    );
    const draft = checkDraft({
      text,
      file: "fuzz.yaml",
      priceOf: () => undefined,
      defaultModel: "claude-sonnet-4-6",
    });
    const draftUnlocated = draft.issues.find((issue) => !located(issue));
    if (draftUnlocated) return done("unlocated", JSON.stringify(draftUnlocated));
    perPointWork(loaded.value);
    return done("valid");
  } catch (error) {
    return done("crash", (error as Error).stack ?? String(error));
  }
}
