import Link from "next/link";
import type { EvalResult } from "@/lib/engine/results/report";
import type { FlipKind } from "@/lib/engine/trust/regrade/flip-kind";
import { renderTranscript } from "@/lib/engine/results/transcript";
import { CandidateView } from "./candidate-view";
import { CriteriaList } from "./criteria-list";
import { formatScore } from "./format";
import { StatusBadge } from "./status-badge";
import { criteriaFlipText, FLIP_KIND_TEXT } from "./flip-counts";
import styles from "./results.module.css";

// A regrade's changed results, each with both verdicts side by side (status,
// score, each criterion's reasoning and evidence, a free-form judge's
// reasoning) and the candidate, which both graded, once.

/** One result beside its source's (lib/store/regrade-views.ts's FlipPair). */
export interface FlipPairView {
  kind: FlipKind;
  previous: EvalResult;
  current: EvalResult;
  flippedCriteria: string[];
}

function Verdict({ result, title, runId }: { result: EvalResult; title: string; runId: string }) {
  const reasoned = result.judges.filter((j) => j.reasoning);
  return (
    <div className={styles.card} data-testid="flip-verdict">
      <div className={styles.cardHead}>
        <strong>{title}</strong>
        <StatusBadge status={result.status} />
        <span data-testid="flip-score">{formatScore(result.score)}</span>
        <Link href={`/runs/${runId}/results/${encodeURIComponent(result.id)}`}>result →</Link>
      </div>
      <p className={styles.muted}>{result.reason}</p>
      {result.criteria.length ? <CriteriaList criteria={result.criteria} /> : null}
      {reasoned.map((j) => (
        <div key={j.judge} data-testid="flip-judge-reasoning">
          {result.judges.length > 1 ? <p className={styles.muted}>{j.judge}</p> : null}
          <p className={styles.reasoning}>{j.reasoning}</p>
          {j.evidence !== undefined ? (
            <blockquote className={styles.quote}>{j.evidence}</blockquote>
          ) : null}
        </div>
      ))}
    </div>
  );
}

export function FlipList({
  pairs,
  runId,
  sourceRunId,
}: {
  pairs: FlipPairView[];
  runId: string;
  sourceRunId: string;
}) {
  return (
    <div>
      {pairs.map((pair) => {
        const { kind, previous, current } = pair;
        const candidate = current.candidate.transcript
          ? renderTranscript(current.candidate.transcript)
          : (current.candidate.response ?? "");
        return (
          <article
            key={current.id}
            className={styles.section}
            data-testid="flip"
            data-kind={kind}
            data-result={current.id}
          >
            <h2>
              {current.name}{" "}
              <span
                className={
                  kind === "now_fail" ? styles.down : kind === "now_pass" ? styles.up : styles.muted
                }
              >
                {FLIP_KIND_TEXT[kind]}
              </span>
            </h2>
            <p data-testid="flip-change">
              {previous.status} {formatScore(previous.score)} → {current.status}{" "}
              {formatScore(current.score)}
            </p>
            {pair.flippedCriteria.length > 0 ? (
              <p data-testid="flip-criteria">{criteriaFlipText(pair)}</p>
            ) : null}
            {current.candidate.prompt ? (
              <p className={styles.muted}>Prompt: {current.candidate.prompt}</p>
            ) : null}
            {candidate ? <CandidateView text={candidate} sources={[]} names={[]} /> : null}
            <div className={styles.flipVerdicts} data-testid="flip-verdicts">
              <Verdict result={previous} title="Before" runId={sourceRunId} />
              <Verdict result={current} title="Now" runId={runId} />
            </div>
          </article>
        );
      })}
    </div>
  );
}
