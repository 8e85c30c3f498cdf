import type { EvalResult } from "../engine/results/report";
import { tokenUsageFromWire } from "../engine/results/token-usage-wire";
import type { JudgeMetadata } from "../engine/results/review-types";
import { formatUsage } from "./format";
import type { TrustSection, TrustTable } from "./trust-section-types";

// A category review's facts: its decision, summary, rubric, each judge's
// tokens and latency from its JudgeMetadata (as the README promises for
// `report FILE`), categories, findings, disagreements and next steps.

const pct = (x: number) => `${(x * 100).toFixed(0)}%`;
const NANOSECONDS_PER_SECOND = 1_000_000_000;

/** "Judge claude-sonnet-4-6: 6,100 tokens (…) · latency 2.35s", from what the judge metadata holds. */
function judgeFact(judge: JudgeMetadata): string {
  const parts = [
    judge.tokens_used ? formatUsage(tokenUsageFromWire(judge.tokens_used)) : "tokens not recorded",
    judge.latency !== undefined && judge.latency > 0
      ? `latency ${(judge.latency / NANOSECONDS_PER_SECOND).toFixed(2)}s`
      : "latency not recorded",
  ];
  return `Judge ${judge.judge_id ?? judge.model}${judge.judge_id && judge.judge_id !== judge.model ? ` (${judge.model})` : ""}: ${parts.join(" · ")}`;
}

export function reviewSection(result: EvalResult): TrustSection | undefined {
  const review = result.review;
  if (!review) return undefined;
  const { report, multiJudge } = review;
  const facts = [
    `Decision: ${report.decision.status} (${report.decision.passed ? "passed" : "not passed"}): ${report.decision.rationale}`,
    report.summary,
    // A Go report may leave rubricId out (omitempty): then there is no rubric to name.
    `${report.rubricId !== undefined ? `Rubric ${[report.rubricId, report.rubricVersion].filter(Boolean).join(" ")}, review type` : "Review type"} ${report.reviewType}, document ${report.metadata.document}`.replace(
      /\s+/g,
      " ",
    ),
  ];
  const judges = multiJudge
    ? multiJudge.evaluations
        .map((e, i) => e.judge ?? multiJudge.judges[i])
        .filter((j) => j !== undefined)
    : report.judge
      ? [report.judge]
      : [];
  facts.push(...judges.map(judgeFact));
  if (multiJudge) {
    facts.push(
      `${multiJudge.evaluations.length} judges, aggregated by ${multiJudge.aggregationMethod}; agreement ${pct(multiJudge.agreement)}`,
    );
  }
  const tables: TrustTable[] = [
    {
      id: "categories",
      caption: "Categories",
      header: ["Category", "Score", "Reasoning"],
      rows: report.categories.map((c) => [c.category, c.score, c.reasoning]),
    },
  ];
  if (report.findings.length > 0) {
    tables.push({
      id: "findings",
      caption: "Findings",
      header: ["Id", "Severity", "Category", "Title", "Recommendation"],
      rows: report.findings.map((f) => [f.id, f.severity, f.category, f.title, f.recommendation]),
    });
  }
  if (multiJudge?.disagreements?.length) {
    tables.push({
      id: "disagreements",
      caption: "Judge disagreements",
      header: ["Category", "Scores"],
      rows: multiJudge.disagreements.map((d) => [
        d.category,
        d.scores.map((s) => `${s.judgeId}: ${s.score}`).join(", "),
      ]),
    });
  }
  const lists = [
    { title: "Immediate", items: (report.nextSteps.immediate ?? []).map((a) => a.action) },
    { title: "Recommended", items: (report.nextSteps.recommended ?? []).map((a) => a.action) },
    { title: "Rerun", items: report.nextSteps.rerunCommand ? [report.nextSteps.rerunCommand] : [] },
  ].filter((l) => l.items.length > 0);
  const tone =
    report.decision.status === "pass"
      ? "good"
      : report.decision.status === "conditional" && report.decision.passed
        ? "warn"
        : "bad";
  return { heading: `Review: ${result.name}`, tone, facts, tables, lists };
}
