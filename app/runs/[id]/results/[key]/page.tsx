import Link from "next/link";
import { cache } from "react";
import { notFound } from "next/navigation";
import { CandidateView } from "@/components/results/candidate-view";
import { ReferenceView } from "@/components/results/reference-view";
import { CriteriaList, VerdictGrid } from "@/components/results/criteria-list";
import { formatInt, formatLatency, formatUsd } from "@/components/results/format";
import { JudgesGrid, judgeModelsText } from "@/components/results/judges-grid";
import { PairwiseView, winnerText } from "@/components/results/pairwise-view";
import { ReviewView } from "@/components/results/review-view";
import { ReusedNote } from "@/components/results/reused-note";
import { RubricSection } from "@/components/results/rubric-section";
import styles from "@/components/results/results.module.css";
import { Stat } from "@/components/results/status-counts";
import { ResultStatus } from "@/components/results/result-status";
import { scoreStatValue } from "@/components/results/score-stat";
import { TranscriptView } from "@/components/results/transcript-view";
import { TreePath } from "@/components/results/tree-path";
import { winRateBars } from "@/lib/engine/pairwise/pairwise-result";
import { renderTranscript } from "@/lib/engine/results/transcript";
import { FlipRateTable } from "@/components/results/flip-rate-table";
import { AskPerson } from "@/components/review/ask-person";
import { askableItems } from "@/lib/engine/trust/people/review-subject";
import { pageSessionReviewer } from "../../../../api/review/reviewer";
import { decodeSegment, repeatViews, runViews } from "../../../_lib/load";

/** One read of the result for the tab's title and the page (React's cache, per request). */
const loadResult = cache(async (runId: string, resultKey: string) =>
  (await runViews()).evalResult({ runId, resultKey }),
);

export async function generateMetadata({
  params,
}: {
  params: Promise<{ id: string; key: string }>;
}) {
  const { id, key } = await params;
  const resultKey = decodeSegment(key);
  // The result's name as its heading gives it ("eval [model=…]"), not the internal key.
  const result = resultKey === undefined ? null : await loadResult(id, resultKey);
  return { title: `Result ${result?.name ?? resultKey ?? ""} · run ${id.slice(0, 8)}` };
}

export const dynamic = "force-dynamic";

export default async function EvalResultPage({
  params,
}: {
  params: Promise<{ id: string; key: string }>;
}) {
  const { id, key } = await params;
  const resultKey = decodeSegment(key);
  if (resultKey === undefined) notFound();
  const views = await runViews();
  const [result, run, repeat, sessionName] = await Promise.all([
    loadResult(id, resultKey),
    views.runOverview(id),
    (await repeatViews()).flipRates(id),
    pageSessionReviewer(),
  ]);
  if (!result || !run) notFound();
  const flips = repeat?.flips.filter((f) => f.eval === result.eval) ?? [];

  // Evidence was checked against what the judge read: the rendered transcript
  // of a live run, the fixed response otherwise.
  const candidateText = result.candidate.transcript
    ? renderTranscript(result.candidate.transcript)
    : (result.candidate.response ?? "");
  // A jury's or panel's evidence is each judge's own.
  const cited = result.criteria.flatMap((c, index) =>
    c.evidence
      ? [{ index, evidence: c.evidence }]
      : c.verdicts.flatMap((v) => (v.evidence ? [{ index, evidence: v.evidence }] : [])),
  );
  const sources = cited.filter(
    (s, i) => cited.findIndex((t) => t.index === s.index && t.evidence === s.evidence) === i,
  );
  const names = result.criteria.map((c) => c.name);
  const freeformVerdicts = result.criteria.length === 0 ? [] : result.criteria[0]!.verdicts;

  return (
    <div className={styles.page}>
      <div className={styles.crumbs}>
        <Link href="/runs">Runs</Link> / <Link href={`/runs/${id}`}>{run.suiteName}</Link> / result
      </div>
      <h1 className={styles.title} data-testid="result-name">
        {result.name}
      </h1>
      <ResultStatus result={result} />
      {result.gates.length ? (
        <p className={styles.down}>Failed gates: {result.gates.join("; ")}</p>
      ) : null}

      <div className={`${styles.section} ${styles.stats}`}>
        {/* A review's pass rules and a comparison's win rates are sentences: they are read in their own sections below. */}
        {result.review || result.pairwise ? (
          <Stat
            label={result.review ? "Decision" : "Winner"}
            value={
              result.review
                ? result.review.report.decision.status
                : winnerText(result.pairwise!.result.overall_winner, result.pairwise!.labels)
            }
            testId="result-score"
          />
        ) : (
          <Stat label="Score" value={scoreStatValue(result)} testId="result-score" />
        )}
        <Stat label="Rubric" value={result.rubric.kind} />
        <Stat
          label={result.judge.models.length > 1 ? "Judge models" : "Judge model"}
          value={judgeModelsText(result.judge)}
          testId="result-judge"
        />
        <Stat label="Judge calls" value={formatInt(result.judgeCalls)} />
        <Stat label="Cost" value={formatUsd(result.costUsd)} />
        <Stat
          label="Tokens"
          value={formatInt(
            result.usage.input +
              result.usage.output +
              result.usage.cacheRead +
              result.usage.cacheWrite,
          )}
        />
        <Stat label="Latency" value={formatLatency(result)} testId="result-latency" />
      </div>
      <ReusedNote calls={result.calls} />

      {result.review ? (
        <section className={styles.section}>
          <h2>Review</h2>
          <ReviewView review={result.review} />
        </section>
      ) : null}

      {result.pairwise ? (
        <section className={styles.section}>
          <h2>Pairwise comparison</h2>
          <PairwiseView
            outcome={result.pairwise}
            bars={winRateBars({ pairs: result.pairwise.pairs, labels: result.pairwise.labels })}
          />
        </section>
      ) : null}

      {result.candidate.prompt ? (
        <section className={styles.section}>
          <h2>Prompt</h2>
          <div className={styles.candidate}>{result.candidate.prompt}</div>
        </section>
      ) : null}

      {result.reference ? <ReferenceView reference={result.reference} /> : null}
      <section className={styles.section}>
        <h2>
          Candidate{sources.length ? " (evidence highlighted; the number is the criterion's)" : ""}
        </h2>
        {result.candidate.source === "generated" && result.candidate.agent ? (
          <p className="muted small" data-testid="generated-by">
            Generated by {result.candidate.agent.model} answering the prompt with no tools
          </p>
        ) : null}
        {candidateText ? (
          <CandidateView text={candidateText} sources={sources} names={names} />
        ) : (
          <div className={styles.empty}>No candidate text was recorded.</div>
        )}
      </section>

      <RubricSection rubric={result.rubric} />

      {result.tree ? (
        <section className={styles.section}>
          <h2>Tree path</h2>
          <TreePath path={result.tree.path} leaf={result.tree.leaf} />
        </section>
      ) : null}

      {result.criteria.length ? (
        <section className={styles.section}>
          <h2>{result.rubric.kind === "criteria" ? "Criteria" : "Verdict"}</h2>
          <CriteriaList criteria={result.criteria} />
        </section>
      ) : null}

      {result.judges.some((j) => j.reasoning) ? (
        <section className={styles.section} data-testid="judge-reasoning">
          <h2>Judge&apos;s reasoning</h2>
          {result.judges
            .filter((j) => j.reasoning)
            .map((j) => (
              <div key={j.judge}>
                {result.judges.length > 1 ? <p className={styles.muted}>{j.judge}</p> : null}
                <p className={styles.reasoning}>{j.reasoning}</p>
                {j.evidence !== undefined ? (
                  <p className={styles.muted}>
                    Evidence: <q>{j.evidence}</q>
                    {j.evidenceFound === false ? " (not found in the candidate)" : ""}
                  </p>
                ) : null}
              </div>
            ))}
        </section>
      ) : null}

      {result.judges.length > 1 ? (
        <section className={styles.section}>
          <h2>Judges side by side</h2>
          <JudgesGrid judges={result.judges} />
          {result.rubric.kind === "freeform" && freeformVerdicts.length > 1 ? (
            <VerdictGrid verdicts={freeformVerdicts} />
          ) : null}
        </section>
      ) : null}

      {repeat && flips.length ? (
        <section className={styles.section} data-testid="flip-section">
          <h2>Flip rate over {repeat.runs} repeats</h2>
          <p className={styles.muted}>
            This run graded every eval {repeat.runs} times (<code>eval --repeat {repeat.runs}</code>
            ): per criterion of {result.eval}, how often its pass / fail changed between the
            repeats.
          </p>
          <FlipRateTable flips={flips} />
        </section>
      ) : null}

      {result.candidate.transcript ? (
        <section className={styles.section}>
          <h2>Live transcript</h2>
          <TranscriptView transcript={result.candidate.transcript} />
        </section>
      ) : null}
      <AskPerson
        runId={id}
        suiteId={run.suiteId}
        resultKey={resultKey}
        items={askableItems(result)}
        sessionName={sessionName}
      />
      {result.candidate.serverStderr ? (
        <section className={styles.section}>
          <h2>Server stderr</h2>
          <div className={styles.candidate}>{result.candidate.serverStderr}</div>
        </section>
      ) : null}
    </div>
  );
}
