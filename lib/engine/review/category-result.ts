import type { CategoryScale, ReviewCategory, ScoreValue } from "../../config/category-types";
import type { CategoryVerdict } from "../ports/verdict";
import type { CategoryResult, ChecklistResults, Finding } from "../results/review-types";

// One judge's verdict on one category, as a CategoryResult with findings.
// A checklist category is scored from the items the judge found, not from the
// judge's own pass / partial / fail: the threshold is the rubric author's,
// and a judge that lists a required item as missing yet says "pass" would
// otherwise pass it.

const normalise = (item: string) => item.trim().toLowerCase().replace(/\s+/g, " ");

/** Pass when the threshold is met; partial when some item is present; fail when none is. */
export function scoreChecklist(
  scale: CategoryScale,
  present: string[],
): { score: ScoreValue; results: ChecklistResults } {
  const found = new Set(present.map(normalise));
  const has = (item: string) => found.has(normalise(item));
  const requiredPresent = scale.requiredItems.filter(has);
  const optionalPresent = scale.optionalItems.filter(has);
  const threshold = scale.passingThreshold ?? { required: "all", optional: 0 };
  const requiredMet =
    threshold.required === "all"
      ? requiredPresent.length === scale.requiredItems.length
      : requiredPresent.length >= threshold.required;
  const optionalMet = optionalPresent.length >= threshold.optional;
  const score: ScoreValue =
    requiredMet && optionalMet
      ? "pass"
      : requiredPresent.length + optionalPresent.length > 0
        ? "partial"
        : "fail";
  const results: ChecklistResults = {
    requiredPresent,
    requiredMissing: scale.requiredItems.filter((item) => !has(item)),
    optionalPresent,
    optionalMissing: scale.optionalItems.filter((item) => !has(item)),
  };
  return { score, results };
}

export function findingsOf(
  category: string,
  verdict: Pick<CategoryVerdict, "findings">,
): Finding[] {
  return verdict.findings.map((f, i) => ({
    id: `${category}-${i + 1}`,
    category,
    severity: f.severity,
    title: f.title,
    description: f.description,
    recommendation: f.recommendation,
    ...(f.evidence !== undefined && f.evidence !== "" ? { evidence: f.evidence } : {}),
    ...(f.owner ? { owner: f.owner } : {}),
    ...(f.effort ? { effort: f.effort } : {}),
  }));
}

export function categoryResultOf(
  category: ReviewCategory,
  verdict: CategoryVerdict,
): CategoryResult {
  let score = verdict.score;
  let reasoning = verdict.reasoning;
  let checklistResults: ChecklistResults | undefined;
  if (category.scale.type === "checklist" && verdict.checklist) {
    const scored = scoreChecklist(category.scale, verdict.checklist.present);
    if (scored.score !== verdict.score)
      reasoning += ` [scored ${scored.score} from the checklist items found; the judge said ${verdict.score}]`;
    score = scored.score;
    checklistResults = scored.results;
  }
  // Only a holistic verdict can give a binary category "partial" (its schema
  // cannot say which categories are binary); it is not a level of the scale.
  if (category.scale.type === "binary" && score === "partial") {
    score = "fail";
    reasoning += " [partial is not a level of this binary scale: counted as fail]";
  }
  const findings = findingsOf(category.id, verdict);
  return {
    category: category.id,
    score,
    reasoning,
    ...(verdict.evidence.length > 0 ? { evidence: verdict.evidence } : {}),
    ...(findings.length > 0 ? { findings } : {}),
    ...(checklistResults ? { checklistResults } : {}),
  };
}

/** pass 1, partial 0.5, fail 0: the points a category contributes to a review's score. */
export const SCORE_POINTS: Record<ScoreValue, number> = { pass: 1, partial: 0.5, fail: 0 };

/** The weighted mean of category points, for charts and the matrix view; the decision never uses it. */
export function reviewScore(
  results: CategoryResult[],
  categories: ReviewCategory[],
): number | null {
  let total = 0;
  let weight = 0;
  for (const result of results) {
    const w = categories.find((c) => c.id === result.category)?.weight ?? 1;
    total += SCORE_POINTS[result.score] * w;
    weight += w;
  }
  return weight > 0 ? total / weight : null;
}
