import type { RubricSetConfig, ScoreValue } from "../../config/category-types";
import type { AggregationMethodModule } from "./aggregation/registry";
import { countVotes } from "./aggregation/method";
import { countFindings, countResults, severityWeight } from "./decide-review";
import type {
  CategoryResult,
  Decision,
  EvaluationReport,
  Finding,
  JudgeDisagreement,
  JudgeMetadata,
  MultiJudgeResult,
} from "../results/review-types";

// Several judges' reviews of one document, combined as the Go package's
// AggregateEvaluations does (spec/README.md):
// - per category, the method votes (majority needs more than half, else
//   partial; conservative the worst; optimistic the best; unanimous partial on
//   any split);
// - agreement = mean over categories of (largest vote count / judges);
// - a category is a disagreement when it got more than one distinct score;
// - duplicate findings (same category and title, ignoring case and spacing)
//   keep the higher severity;
// - the consolidated decision comes from the judges' decisions by the method.
// Every output is sorted explicitly (rubric category order, severity), never by
// map order.

export interface JudgedReview {
  judgeId: string;
  report: EvaluationReport;
}

const titleKey = (f: Finding) =>
  `${f.category}\u0000${f.title.trim().toLowerCase().replace(/\s+/g, " ")}`;

export function consolidateFindings(reviews: JudgedReview[], rubric: RubricSetConfig): Finding[] {
  const kept = new Map<string, { finding: Finding; order: number }>();
  let order = 0;
  for (const { report } of reviews) {
    for (const finding of report.findings) {
      const key = titleKey(finding);
      const existing = kept.get(key);
      if (!existing) kept.set(key, { finding, order: order++ });
      else if (severityWeight(finding.severity) > severityWeight(existing.finding.severity))
        kept.set(key, { finding, order: existing.order });
    }
  }
  const categoryIndex = (id: string) => {
    const i = rubric.categories.findIndex((c) => c.id === id);
    return i < 0 ? rubric.categories.length : i;
  };
  const sorted = [...kept.values()].sort(
    (a, b) =>
      severityWeight(b.finding.severity) - severityWeight(a.finding.severity) ||
      categoryIndex(a.finding.category) - categoryIndex(b.finding.category) ||
      a.order - b.order,
  );
  // Judges number their findings independently; renumber so ids stay unique.
  const seen = new Map<string, number>();
  return sorted.map(({ finding }) => {
    const n = (seen.get(finding.category) ?? 0) + 1;
    seen.set(finding.category, n);
    return { ...finding, id: `${finding.category}-${n}` };
  });
}

function aggregateCategory(input: {
  id: string;
  reviews: JudgedReview[];
  method: AggregationMethodModule;
  findings: Finding[];
}): { result: CategoryResult; votes: { judgeId: string; score: ScoreValue }[] } | undefined {
  const { id, reviews, method } = input;
  const votes = reviews.flatMap(({ judgeId, report }) => {
    const result = report.categories.find((c) => c.category === id);
    return result ? [{ judgeId, score: result.score, result }] : [];
  });
  if (votes.length === 0) return undefined;
  const score = method.voteCategory(votes.map((v) => v.score));
  const agreeing = votes.filter((v) => v.score === score);
  const split = votes.map((v) => `${v.judgeId}: ${v.score}`).join(", ");
  const reasoning =
    agreeing.length === votes.length
      ? agreeing[0]!.result.reasoning
      : agreeing.length > 0
        ? `${method.name} of ${votes.length} judges (${split}). ${agreeing[0]!.result.reasoning}`
        : `${method.name} of ${votes.length} judges (${split}) gives ${score}: no judge gave that score.`;
  const evidence = [
    ...new Set((agreeing.length > 0 ? agreeing : votes).flatMap((v) => v.result.evidence ?? [])),
  ];
  const findings = input.findings.filter((f) => f.category === id);
  const checklist = agreeing.find((v) => v.result.checklistResults)?.result.checklistResults;
  return {
    result: {
      category: id,
      score,
      reasoning,
      ...(evidence.length > 0 ? { evidence } : {}),
      ...(findings.length > 0 ? { findings } : {}),
      ...(checklist ? { checklistResults: checklist } : {}),
    },
    votes: votes.map(({ judgeId, score: s }) => ({ judgeId, score: s })),
  };
}

function consolidateDecision(input: {
  reviews: JudgedReview[];
  method: AggregationMethodModule;
  categories: CategoryResult[];
  findings: Finding[];
}): Decision {
  const { reviews, method } = input;
  const decisions = reviews.map((r) => ({ judgeId: r.judgeId, ...r.report.decision }));
  const status = method.decide(decisions.map((d) => d.status));
  const conditional = decisions.filter((d) => d.status === "conditional").map((d) => d.passed);
  const passed =
    status === "pass" || (status === "conditional" && method.passedWhenConditional(conditional));
  const tally = [...countVotes(decisions.map((d) => d.status))]
    .map(([s, n]) => `${n} ${s}`)
    .join(", ");
  const rationale =
    status === "human_review"
      ? `The judges did not agree (${tally}); ${method.name} sends the review to a person`
      : `${method.name} of ${decisions.length} judge decisions (${tally}) gives ${status}`;
  return {
    status,
    passed,
    rationale,
    findingCounts: countFindings(input.findings),
    categoryCounts: countResults(input.categories),
  };
}

export function aggregateEvaluations(input: {
  reviews: JudgedReview[];
  judges: JudgeMetadata[];
  method: AggregationMethodModule;
  rubric: RubricSetConfig;
}): MultiJudgeResult {
  const { reviews, method, rubric } = input;
  const consolidatedFindings = consolidateFindings(reviews, rubric);
  const aggregated = rubric.categories.flatMap((c) => {
    const one = aggregateCategory({ id: c.id, reviews, method, findings: consolidatedFindings });
    return one ? [one] : [];
  });
  const agreement =
    aggregated.length === 0
      ? 1
      : aggregated.reduce(
          (sum, a) =>
            sum + Math.max(...countVotes(a.votes.map((v) => v.score)).values()) / reviews.length,
          0,
        ) / aggregated.length;
  const disagreements: JudgeDisagreement[] = aggregated
    .map((a) => ({
      category: a.result.category,
      scores: a.votes,
      uniqueScores: new Set(a.votes.map((v) => v.score)).size,
    }))
    .filter((d) => d.uniqueScores > 1);
  const aggregatedCategories = aggregated.map((a) => a.result);
  return {
    evaluations: reviews.map((r) => r.report),
    judges: input.judges,
    aggregatedCategories,
    aggregationMethod: method.name,
    agreement,
    ...(disagreements.length > 0 ? { disagreements } : {}),
    consolidatedDecision: consolidateDecision({
      reviews,
      method,
      categories: aggregatedCategories,
      findings: consolidatedFindings,
    }),
    consolidatedFindings,
  };
}
