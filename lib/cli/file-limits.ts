import { FILE_PLAN_LIMITS, type PlanLimits } from "../config/limits";
import type { Settings } from "../env/read-env";

// The bounds of a suite a person runs from a file with the CLI: sized for a
// million judge calls and more, raised or lowered by a setting that every
// error over them names. Only the CLI passes these to the loader: the
// dashboard, the editor and the validate API keep the browser's bounds
// (BROWSER_PLAN_LIMITS, loadSuite's default), whatever the environment says.

export const MAX_CELLS_SETTING = "RUBRIC_STUDIO_MAX_CELLS";
export const MAX_JUDGE_CALLS_SETTING = "RUBRIC_STUDIO_MAX_JUDGE_CALLS";

export function fileLimits(settings: Pick<Settings, "maxCells" | "maxJudgeCalls">): PlanLimits {
  const cells = settings.maxCells ?? FILE_PLAN_LIMITS.cells;
  return {
    cells,
    judgeCalls: settings.maxJudgeCalls ?? FILE_PLAN_LIMITS.judgeCalls,
    // A dataset file has at most one item per cell it could plan.
    datasetItems: cells,
    raise: {
      cells: `set ${MAX_CELLS_SETTING}=N to raise it`,
      judgeCalls: `set ${MAX_JUDGE_CALLS_SETTING}=N to raise it`,
    },
  };
}
