import type { CriterionResult, VerdictRecord } from "@/lib/engine/report";
import { formatScore } from "./format";
import { StatusBadge } from "./status-badge";
import styles from "./results.module.css";

const GATE_TEXT: Record<string, string> = {
  required_failed: "required criterion below its threshold",
  guard_triggered: "guard triggered",
  evidence_missing: "cited evidence not found in the candidate",
};

function criterionStatus(c: CriterionResult): string {
  if (c.status !== "graded") return c.status;
  return c.passed === false ? "failed" : "passed";
}

export function VerdictGrid({ verdicts }: { verdicts: VerdictRecord[] }) {
  if (verdicts.length === 0) return null;
  return (
    <div className={styles.verdicts} data-testid="verdicts">
      {verdicts.map((v, i) => (
        <div className={styles.verdict} key={`${v.judge}-${i}`}>
          <div className={styles.cardHead}>
            <strong>{v.judge}</strong>
            <span>{v.error ? <StatusBadge status="judge_error" /> : formatScore(v.score)}</span>
          </div>
          {v.error ? <p className={styles.reasoning}>{v.error}</p> : null}
          <p className={styles.reasoning}>{v.reasoning}</p>
          {v.evidence ? <blockquote className={styles.quote}>{v.evidence}</blockquote> : null}
        </div>
      ))}
    </div>
  );
}

/** Per criterion: outcome, score against threshold, weight, the required / guard / when outcomes, reasoning, evidence, and each judge's verdict. */
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
            <span>
              {formatScore(c.score)} <span className={styles.muted}>/ threshold {formatScore(c.threshold)}</span>
            </span>
          </div>
          <div className={styles.facts}>
            <span>weight {c.weight}</span>
            {c.required ? <span>required: {c.gates.includes("required_failed") ? "failed the gate" : "held"}</span> : null}
            {c.guard ? <span>guard: {c.gates.includes("guard_triggered") ? "triggered" : "clean"} (score inverted)</span> : null}
            {c.skippedReason ? <span>when: skipped, {c.skippedReason}</span> : null}
            {c.evidenceFound !== undefined ? <span>evidence {c.evidenceFound ? "found in the candidate" : "not found in the candidate"}</span> : null}
          </div>
          {c.description ? <p className={styles.muted}>{c.description}</p> : null}
          {c.gates.length ? <p className={styles.down}>Gates: {c.gates.map((g) => GATE_TEXT[g] ?? g).join("; ")}</p> : null}
          {c.reasoning ? <p className={styles.reasoning} data-testid="criterion-reasoning">{c.reasoning}</p> : null}
          {c.evidence ? <blockquote className={styles.quote}>{c.evidence}</blockquote> : null}
          {c.verdicts.length > 1 ? <VerdictGrid verdicts={c.verdicts} /> : null}
        </article>
      ))}
    </div>
  );
}
