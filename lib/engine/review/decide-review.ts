import type { ReviewPassCriteria, RubricSetConfig, Severity } from "../../config/category-types";
import type {
  CategoryResult,
  CategoryResultCounts,
  Decision,
  Finding,
  FindingCounts,
} from "../results/review-types";

// The decision of a review, by exactly the rules of the Go package's Evaluate
// (spec/README.md), in this order:
//   1. more critical, then more high findings than allowed       -> fail
//   2. the category rule fails                                    -> fail
//      all: every category passes (a partial fails it); all_required: every
//      required category passes; N: at least N categories pass
//   3. more medium findings than allowed                          -> conditional, passed = false
//   4. any partial category                                       -> conditional, passed = true
//   5. any medium or low finding                                  -> conditional, passed = true
//   6. otherwise                                                  -> pass
// A limit of -1 is unlimited. Low findings are never limited (step 5 only).

export const SEVERITY_ORDER: Severity[] = ["critical", "high", "medium", "low", "info"];

/** Higher is more severe (Go's Severity.Weight order). */
export function severityWeight(severity: Severity): number {
  return SEVERITY_ORDER.length - SEVERITY_ORDER.indexOf(severity);
}

export function isBlocking(severity: Severity): boolean {
  return severity === "critical" || severity === "high";
}

export function countFindings(findings: Finding[]): FindingCounts {
  const counts: FindingCounts = {
    critical: 0,
    high: 0,
    medium: 0,
    low: 0,
    info: 0,
    total: findings.length,
  };
  for (const finding of findings) counts[finding.severity]++;
  return counts;
}

export function countResults(results: CategoryResult[]): CategoryResultCounts {
  const counts: CategoryResultCounts = { pass: 0, partial: 0, fail: 0, total: results.length };
  for (const result of results) counts[result.score]++;
  return counts;
}

const over = (count: number, limit: number) => limit >= 0 && count > limit;
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** Which required categories did not pass: absent ones count as not passed. */
export function failingRequired(results: CategoryResult[], rubric: RubricSetConfig): string[] {
  return rubric.categories
    .filter((c) => c.required && results.find((r) => r.category === c.id)?.score !== "pass")
    .map((c) => c.id);
}

export function decideReview(input: {
  results: CategoryResult[];
  findings: Finding[];
  criteria: ReviewPassCriteria;
  rubric: RubricSetConfig;
}): Decision {
  const { results, findings, criteria, rubric } = input;
  const findingCounts = countFindings(findings);
  const categoryCounts = countResults(results);
  const decide = (status: Decision["status"], passed: boolean, rationale: string): Decision => ({
    status,
    passed,
    rationale,
    findingCounts,
    categoryCounts,
  });
  const limits = criteria.maxFindings;

  if (over(findingCounts.critical, limits.critical)) {
    return decide(
      "fail",
      false,
      `Blocked: ${plural(findingCounts.critical, "critical finding")} (max ${limits.critical} allowed)`,
    );
  }
  if (over(findingCounts.high, limits.high)) {
    return decide(
      "fail",
      false,
      `Blocked: ${plural(findingCounts.high, "high severity finding")} (max ${limits.high} allowed)`,
    );
  }

  const rule = criteria.minCategoriesPassing;
  if (rule === "all") {
    if (categoryCounts.fail > 0 || categoryCounts.partial > 0) {
      return decide(
        "fail",
        false,
        `Not all categories passed: ${categoryCounts.fail} failed, ${categoryCounts.partial} partial`,
      );
    }
  } else if (rule === "all_required") {
    const missing = failingRequired(results, rubric);
    if (missing.length > 0)
      return decide(
        "fail",
        false,
        `Required ${missing.length === 1 ? "category" : "categories"} did not pass: ${missing.join(", ")}`,
      );
  } else if (categoryCounts.pass < rule) {
    return decide(
      "fail",
      false,
      `Only ${plural(categoryCounts.pass, "category")} passed (minimum ${rule} required)`,
    );
  }

  if (over(findingCounts.medium, limits.medium)) {
    return decide(
      "conditional",
      false,
      `${plural(findingCounts.medium, "medium finding")} exceeds the limit of ${limits.medium}`,
    );
  }
  if (categoryCounts.partial > 0)
    return decide(
      "conditional",
      true,
      `Passed with ${plural(categoryCounts.partial, "partial score")}`,
    );
  if (findingCounts.medium > 0 || findingCounts.low > 0)
    return decide("conditional", true, "Passed with non-blocking findings");
  return decide("pass", true, "Meets all criteria");
}
