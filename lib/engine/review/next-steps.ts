import type {
  ActionItem,
  CategoryResult,
  Decision,
  Finding,
  NextSteps,
} from "../results/review-types";
import { isBlocking } from "./decide-review";

// Next steps and the summary line, as the Go package's GenerateNextSteps and
// GenerateSummary write them: critical and high findings are immediate
// actions, medium ones recommended; a failed category adds "Address failing
// category: X" (immediate), a partial one "Improve partial category: X"
// (recommended). Findings come first, in the order given, then categories.

function actionOf(finding: Finding): ActionItem {
  return {
    action: finding.recommendation,
    category: finding.category,
    severity: finding.severity,
    ...(finding.owner !== undefined ? { owner: finding.owner } : {}),
    ...(finding.effort !== undefined ? { effort: finding.effort } : {}),
  };
}

export function generateNextSteps(input: {
  findings: Finding[];
  categories: CategoryResult[];
  rerunCommand?: string;
}): NextSteps {
  const immediate: ActionItem[] = [];
  const recommended: ActionItem[] = [];
  for (const finding of input.findings) {
    if (isBlocking(finding.severity)) immediate.push(actionOf(finding));
    else if (finding.severity === "medium") recommended.push(actionOf(finding));
  }
  for (const category of input.categories) {
    if (category.score === "fail")
      immediate.push({
        action: `Address failing category: ${category.category}`,
        category: category.category,
      });
    else if (category.score === "partial")
      recommended.push({
        action: `Improve partial category: ${category.category}`,
        category: category.category,
      });
  }
  return {
    ...(input.rerunCommand !== undefined ? { rerunCommand: input.rerunCommand } : {}),
    ...(immediate.length > 0 ? { immediate } : {}),
    ...(recommended.length > 0 ? { recommended } : {}),
  };
}

/** "Categories: 2 pass, 1 partial, 0 fail. 3 findings (1 high, 2 medium). Decision: fail." */
export function generateSummary(decision: Decision): string {
  const c = decision.categoryCounts;
  const f = decision.findingCounts;
  let summary = `Categories: ${c.pass} pass, ${c.partial} partial, ${c.fail} fail. `;
  if (f.total === 0) summary += "No findings.";
  else {
    const parts = (["critical", "high", "medium", "low"] as const)
      .filter((s) => f[s] > 0)
      .map((s) => `${f[s]} ${s}`);
    summary += `${f.total} findings${parts.length > 0 ? ` (${parts.join(", ")})` : ""}.`;
  }
  return `${summary} Decision: ${decision.status}.`;
}
