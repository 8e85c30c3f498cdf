import type {
  ActionItem,
  CategoryResult,
  Decision,
  Finding,
  ReviewOutcome,
} from "@/lib/engine/results/review-types";
import { SEVERITIES } from "@/lib/config/category-schema";
import { CopyButton } from "../ui/copy-button";
import styles from "./results.module.css";
import trust from "./trust.module.css";

// A category review as the engine decided it (lib/engine/review): the
// decision, the findings by severity, each category's result, the next steps
// with the rerun command, and with several judges how they split. Findings,
// reasoning and evidence are model output: rendered as text.

const DECISION_LABELS: Record<Decision["status"], string> = {
  pass: "pass",
  conditional: "conditional",
  fail: "fail",
  human_review: "human review",
};

export function DecisionBadge({ decision }: { decision: Decision }) {
  return (
    <span
      className={`${trust.decision} ${trust[decision.status] ?? ""}`}
      data-testid="decision-badge"
      data-decision={decision.status}
    >
      {DECISION_LABELS[decision.status] ?? decision.status}
      {decision.status === "conditional" ? (decision.passed ? " · passed" : " · not passed") : ""}
    </span>
  );
}

function FindingCard({ finding }: { finding: Finding }) {
  return (
    <div className={styles.card} data-testid="finding" data-severity={finding.severity}>
      <div className={styles.cardHead}>
        <span className={`${trust.severity} ${trust[finding.severity]}`}>{finding.severity}</span>
        <strong data-testid="finding-title">{finding.title}</strong>
        <span className={styles.muted}>{finding.category}</span>
      </div>
      <p className={styles.reasoning}>{finding.description}</p>
      {finding.recommendation ? (
        <p className={styles.reasoning}>→ {finding.recommendation}</p>
      ) : null}
      {finding.evidence ? <p className={styles.quote}>{finding.evidence}</p> : null}
    </div>
  );
}

function Findings({ findings }: { findings: Finding[] }) {
  if (findings.length === 0) return <div className={styles.empty}>No findings.</div>;
  return (
    <div data-testid="findings">
      {SEVERITIES.map((severity) => {
        const group = findings.filter((f) => f.severity === severity);
        if (group.length === 0) return null;
        return (
          <div
            className={trust.group}
            key={severity}
            data-testid="severity-group"
            data-severity={severity}
          >
            <h3>
              <span className={`${trust.severity} ${trust[severity]}`}>{severity}</span>
              <span data-testid="severity-count">{group.length}</span>
            </h3>
            {group.map((f) => (
              <FindingCard key={f.id} finding={f} />
            ))}
          </div>
        );
      })}
    </div>
  );
}

function Categories({ categories }: { categories: CategoryResult[] }) {
  return (
    <div data-testid="review-categories">
      {categories.map((c) => (
        <div
          className={styles.card}
          key={c.category}
          data-testid="review-category"
          data-score={c.score}
        >
          <div className={styles.cardHead}>
            <span className={`${trust.decision} ${trust.small} ${trust[c.score]}`}>{c.score}</span>
            <strong>{c.category}</strong>
          </div>
          <p className={styles.reasoning}>{c.reasoning}</p>
          {c.evidence?.map((e, i) => (
            <p className={styles.quote} key={i}>
              {e}
            </p>
          ))}
          {c.checklistResults ? (
            <div className={styles.facts}>
              {c.checklistResults.requiredPresent?.length ? (
                <span>required present: {c.checklistResults.requiredPresent.join(", ")}</span>
              ) : null}
              {c.checklistResults.requiredMissing?.length ? (
                <span className={styles.down}>
                  required missing: {c.checklistResults.requiredMissing.join(", ")}
                </span>
              ) : null}
              {c.checklistResults.optionalPresent?.length ? (
                <span>optional present: {c.checklistResults.optionalPresent.join(", ")}</span>
              ) : null}
              {c.checklistResults.optionalMissing?.length ? (
                <span>optional missing: {c.checklistResults.optionalMissing.join(", ")}</span>
              ) : null}
            </div>
          ) : null}
        </div>
      ))}
    </div>
  );
}

function Actions({
  title,
  items,
  testId,
}: {
  title: string;
  items: ActionItem[] | undefined;
  testId: string;
}) {
  if (!items?.length) return null;
  return (
    <div className={trust.group} data-testid={testId}>
      <h3>{title}</h3>
      <ul>
        {items.map((a, i) => (
          <li key={i}>
            {a.severity ? (
              <span className={`${trust.severity} ${trust[a.severity]}`}>{a.severity}</span>
            ) : null}{" "}
            {a.action}
          </li>
        ))}
      </ul>
    </div>
  );
}

export function ReviewView({ review }: { review: ReviewOutcome }) {
  const { report, multiJudge } = review;
  const judgeIds = multiJudge
    ? multiJudge.evaluations.map((e, i) => e.judge?.judge_id ?? e.judge?.model ?? `judge ${i + 1}`)
    : [];
  const counts = report.decision.findingCounts;
  return (
    <div data-testid="review">
      <div className={styles.cardHead}>
        <DecisionBadge decision={report.decision} />
        <span data-testid="decision-rationale">{report.decision.rationale}</span>
      </div>
      <p className={styles.muted}>{report.summary}</p>
      <div className={styles.facts}>
        <span>critical {counts.critical}</span>
        <span>high {counts.high}</span>
        <span>medium {counts.medium}</span>
        <span>low {counts.low}</span>
        <span>info {counts.info}</span>
        <span>
          categories: {report.decision.categoryCounts.pass} pass,{" "}
          {report.decision.categoryCounts.partial} partial, {report.decision.categoryCounts.fail}{" "}
          fail
        </span>
      </div>

      {multiJudge ? (
        <div className={trust.group} data-testid="multi-judge">
          <h3>
            {multiJudge.evaluations.length} judges, {multiJudge.aggregationMethod}
          </h3>
          <div className={styles.facts}>
            <span data-testid="review-agreement">
              agreement {Math.round(multiJudge.agreement * 100)}%
            </span>
            <span>consolidated decision {multiJudge.consolidatedDecision.status}</span>
          </div>
          <div className={trust.side}>
            {multiJudge.evaluations.map((e, i) => (
              <div className={styles.verdict} key={i} data-testid="judge-decision">
                <div className={styles.cardHead}>
                  <strong>{judgeIds[i]}</strong>
                  <DecisionBadge decision={e.decision} />
                </div>
                <p className={styles.reasoning}>{e.decision.rationale}</p>
              </div>
            ))}
          </div>
          {multiJudge.disagreements?.length ? (
            <table className={styles.table} data-testid="review-disagreements">
              <thead>
                <tr>
                  <th>Category</th>
                  {judgeIds.map((id) => (
                    <th key={id}>{id}</th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {multiJudge.disagreements.map((d) => (
                  <tr key={d.category} data-testid="review-disagreement">
                    <td>{d.category}</td>
                    {judgeIds.map((id) => (
                      <td key={id}>{d.scores.find((s) => s.judgeId === id)?.score ?? "—"}</td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          ) : (
            <p className={styles.muted}>The judges agreed on every category.</p>
          )}
        </div>
      ) : null}

      <div className={trust.group}>
        <h3>Findings</h3>
        <Findings findings={report.findings} />
      </div>
      <div className={trust.group}>
        <h3>Categories</h3>
        <Categories categories={report.categories} />
      </div>
      <div className={trust.group} data-testid="next-steps">
        <h3>Next steps</h3>
        <Actions title="Immediate" items={report.nextSteps.immediate} testId="immediate-steps" />
        <Actions
          title="Recommended"
          items={report.nextSteps.recommended}
          testId="recommended-steps"
        />
        {!report.nextSteps.immediate?.length && !report.nextSteps.recommended?.length ? (
          <p className={styles.muted}>Nothing to do.</p>
        ) : null}
        {report.nextSteps.rerunCommand ? (
          <div className={trust.command}>
            <code data-testid="rerun-command">{report.nextSteps.rerunCommand}</code>
            <CopyButton className={styles.button} text={report.nextSteps.rerunCommand} />
          </div>
        ) : null}
      </div>
    </div>
  );
}
