import type { CriterionGate, CriterionResult, VerdictRecord } from "@/lib/engine/results/report";
import { formatScore } from "./format";
import { StatusBadge } from "./status-badge";
import styles from "./results.module.css";

const GATE_TEXT: Record<CriterionGate, string> = {
  required_failed: "required criterion below its threshold",
  guard_triggered: "guard triggered",
  evidence_missing: "cited evidence not found in the candidate",
};

function criterionStatus(c: CriterionResult): string {
  if (c.status !== "graded") return c.status;
  return c.passed === false ? "failed" : "passed";
}

function verdictStatus(v: VerdictRecord): string | null {
  if (v.error) return "judge_error";
  return v.passed === true ? "passed" : v.passed === false ? "failed" : null;
}

/**
 * Each judge's own verdict: its score (a guard's as the judge said it, before
 * inversion), whether it passed, the gates it failed, and its own reasoning
 * and evidence, under that judge and no other.
 */
export function VerdictGrid({ verdicts }: { verdicts: VerdictRecord[] }) {
  if (verdicts.length === 0) return null;
  return (
    <div className={styles.verdicts} data-testid="verdicts">
      {verdicts.map((v, i) => {
        const status = verdictStatus(v);
        return (
          <div className={styles.verdict} key={`${v.judge}-${i}`} data-testid="verdict">
            <div className={styles.cardHead}>
              <strong>{v.judge}</strong>
              {status ? <StatusBadge status={status} /> : null}
              <span>{v.error ? null : formatScore(v.score)}</span>
            </div>
            {v.gates?.length ? (
              <p className={styles.down}>
                Gates: {v.gates.map((g) => GATE_TEXT[g] ?? g).join("; ")}
              </p>
            ) : null}
            {v.error ? <p className={styles.reasoning}>{v.error}</p> : null}
            <p className={styles.reasoning} data-testid="juror-reasoning">
              {v.reasoning}
            </p>
            {v.evidence ? (
              <blockquote className={styles.quote}>
                {v.evidence}
                {v.evidenceFound === false ? " (not found in the candidate)" : ""}
              </blockquote>
            ) : null}
          </div>
        );
      })}
    </div>
  );
}

/**
 * The criterion's one verdict: with several judges, the rule that decided it
 * ("2 of 3 jurors passed it, 2 needed; their mean 0.67 is below 0.70", which
 * places the mean against the threshold itself); with one, its score against
 * the threshold.
 */
function Headline({ c }: { c: CriterionResult }) {
  if (c.combined && c.status === "graded")
    return <span data-testid="criterion-headline">{c.combined.summary}</span>;
  return (
    <span data-testid="criterion-headline">
      {formatScore(c.score)}{" "}
      <span className={styles.muted}>/ threshold {formatScore(c.threshold)}</span>
    </span>
  );
}

/** Whose verdicts held or failed a required criterion of several judges. */
const voters = (c: CriterionResult) =>
  c.combined ? ` by the ${c.combined.method === "jury" ? "jurors'" : "models'"} votes` : "";

/** Per criterion: the combined outcome, score against threshold, weight, the required / guard / when outcomes on that same verdict, and each judge's own verdict and reasoning. */
export function CriteriaList({ criteria }: { criteria: CriterionResult[] }) {
  return (
    <div data-testid="criteria">
      {criteria.map((c, i) => (
        <article className={styles.card} key={`${c.name}-${i}`} data-testid="criterion">
          <div className={styles.cardHead}>
            <strong>
              {i + 1}. {c.name}
            </strong>
            <StatusBadge status={criterionStatus(c)} />
            <Headline c={c} />
          </div>
          <div className={styles.facts}>
            <span>weight {c.weight}</span>
            {c.required ? (
              <span>
                required:{" "}
                {c.status !== "graded"
                  ? "not graded"
                  : c.gates.includes("required_failed")
                    ? "failed the gate"
                    : `held${voters(c)}`}
              </span>
            ) : null}
            {c.guard ? (
              <span>
                guard:{" "}
                {c.status !== "graded"
                  ? "not graded"
                  : `${c.gates.includes("guard_triggered") ? "triggered" : "clean"} (score inverted)`}
              </span>
            ) : null}
            {c.skippedReason ? (
              <span data-testid="criterion-skipped">not graded: {c.skippedReason}</span>
            ) : null}
            {c.evidenceFound !== undefined ? (
              <span>
                evidence {c.evidenceFound ? "found in the candidate" : "not found in the candidate"}
              </span>
            ) : null}
          </div>
          {c.description ? <p className={styles.muted}>{c.description}</p> : null}
          {c.gates.length ? (
            <p className={styles.down} data-testid="criterion-gates">
              Gates: {c.gates.map((g) => GATE_TEXT[g] ?? g).join("; ")}
            </p>
          ) : null}
          {c.reasoning ? (
            <p className={styles.reasoning} data-testid="criterion-reasoning">
              {c.reasoning}
            </p>
          ) : null}
          {c.evidence ? <blockquote className={styles.quote}>{c.evidence}</blockquote> : null}
          {c.verdicts.length > 1 ? <VerdictGrid verdicts={c.verdicts} /> : null}
        </article>
      ))}
    </div>
  );
}
