import type { Scale } from "../../../config/types";
import type { EvalResult, VerdictRecord } from "../../results/report";
import { renderTranscript } from "../../results/transcript";
import { DECISION_ITEM } from "./needs-person";
import { labelScaleOf, type LabelScale } from "./label-scale";

// What a person reads to answer one review question about a stored result:
// the exact text to label (what the judge read), the scale to answer on, the
// judge's evidence to highlight, and the judges' verdicts (shown only after
// the person answered, so the label is not anchored on them).

export interface JudgeSaid {
  judge: string;
  /** As a person reads it: "0.80", "pass", "partial", "A". */
  said: string;
  reasoning: string;
}

export interface ReviewSubject {
  /** The exact text a label is about. */
  candidate: string;
  prompt?: string;
  /** The known-good answers and context the judge was given (reference-guided grading): the person reads them too. */
  reference?: { expectedOutputs: string[]; context: string[] };
  /** What the criterion, category or question asks, as the rubric puts it. */
  asks: string;
  scale: LabelScale;
  /** Verbatim spans the judges cited, to highlight. */
  evidence: string[];
  verdicts: JudgeSaid[];
}

const fixed = (n: number | null) => (n === null ? "–" : n.toFixed(2));

function verdictsOf(records: VerdictRecord[], scale: Scale): JudgeSaid[] {
  return records.map((v) => ({
    judge: v.judge,
    said: v.error
      ? `error: ${v.error}`
      : scale.kind === "boolean" && v.passed != null
        ? v.passed
          ? "pass"
          : "fail"
        : fixed(v.score),
    reasoning: v.reasoning,
  }));
}

function pairwiseSubject(result: EvalResult, item: string): ReviewSubject {
  const outcome = result.pairwise!;
  const comparison = outcome.result.comparisons.find(
    (c) => c.id === item || c.id?.startsWith(`${item}/`),
  );
  const { a, b } = outcome.labels;
  return {
    candidate: comparison
      ? `A (${a}):\n${comparison.output_a}\n\nB (${b}):\n${comparison.output_b}`
      : "",
    ...(comparison?.input ? { prompt: comparison.input } : {}),
    asks: result.rubric.text ?? "Which response is better?",
    scale: labelScaleOf({ rubricKind: "pairwise", scale: result.scale }),
    evidence: [],
    verdicts: outcome.pairs
      .filter((p) => p.item === item)
      .map((p) => ({
        judge: p.judge,
        said: `${p.winner} (A first: ${p.original}, B first: ${p.swappedMapped})`,
        reasoning: p.reasoning,
      })),
  };
}

function reviewSubject(result: EvalResult, category: string, text: string): ReviewSubject {
  const report = result.review!.report;
  if (category === DECISION_ITEM) {
    const judges = result.review!.multiJudge?.evaluations ?? [report];
    return {
      candidate: text,
      asks: `The review's decision (${report.reviewType}): does the document pass?`,
      scale: labelScaleOf({ rubricKind: "decision", scale: result.scale }),
      evidence: report.categories.flatMap((c) => c.evidence ?? []),
      verdicts: judges.map((r, i) => ({
        judge: r.judge?.model ?? `judge ${i + 1}`,
        said: r.decision.status,
        reasoning: r.decision.rationale,
      })),
    };
  }
  // A category's row among the result's criteria: named as the rubric names it, each judge's verdict scored 1 / 0.5 / 0.
  const row = result.criteria.find((c) => c.name === category);
  const scale = labelScaleOf({ rubricKind: "categories", scale: result.scale });
  const said = (score: number | null) =>
    score === null ? "–" : score >= 0.75 ? "pass" : score >= 0.25 ? "partial" : "fail";
  return {
    candidate: text,
    asks: row ? `${row.name}: ${row.description}` : `Category ${category}`,
    scale,
    evidence: row
      ? [
          ...new Set(
            [row.evidence, ...row.verdicts.map((v) => v.evidence)].filter((e): e is string => !!e),
          ),
        ]
      : [],
    verdicts: (row?.verdicts ?? []).map((v) => ({
      judge: v.judge,
      said: v.error ? `error: ${v.error}` : said(v.score),
      reasoning: v.reasoning,
    })),
  };
}

/** The subject of a question about `criterion` of a stored result. */
export function reviewSubjectOf(result: EvalResult, criterion: string): ReviewSubject {
  const subject = subjectOf(result, criterion);
  return result.reference ? { ...subject, reference: result.reference } : subject;
}

function subjectOf(result: EvalResult, criterion: string): ReviewSubject {
  if (result.pairwise) return pairwiseSubject(result, criterion);
  const text = result.candidate.transcript
    ? renderTranscript(result.candidate.transcript)
    : (result.candidate.response ?? "");
  if (result.review) return reviewSubject(result, criterion, text);
  const scale = labelScaleOf({ rubricKind: result.rubric.kind, scale: result.scale });
  const found =
    result.criteria.find((c) => c.name === criterion) ??
    (result.criteria.length === 1 ? result.criteria[0] : undefined);
  const evidence = found
    ? [found.evidence, ...found.verdicts.map((v) => v.evidence)].filter((e): e is string => !!e)
    : [];
  return {
    candidate: text,
    ...(result.candidate.prompt ? { prompt: result.candidate.prompt } : {}),
    asks:
      found?.description ||
      result.rubric.criteria?.find((c) => c.name === criterion)?.description ||
      result.rubric.text ||
      criterion,
    scale,
    evidence: [...new Set(evidence)],
    verdicts: found
      ? verdictsOf(found.verdicts, result.scale)
      : result.judges.map((j) => ({ judge: j.judge, said: fixed(j.score), reasoning: "" })),
  };
}

/** What a person can be asked about in a result: its criteria, a review's decision and categories, or a comparison's pairs. */
export function askableItems(result: EvalResult): string[] {
  if (result.pairwise) return [...new Set(result.pairwise.pairs.map((p) => p.item))];
  // A review's categories by the names its rows (result.criteria) carry, as the queue and the labels name them (not their ids).
  if (result.review) return [DECISION_ITEM, ...result.criteria.map((c) => c.name)];
  // A deferred result has no criterion rows; its rubric names the criteria it would have graded.
  const criteria = result.criteria.length ? result.criteria : (result.rubric.criteria ?? []);
  return criteria.length ? criteria.map((c) => c.name) : ["(rubric)"];
}
