import Link from "next/link";
import type { EvalStatus } from "@/lib/engine/results/report";
import { costText, formatTime } from "./format";
import { passRateText } from "./run-outcome";
import { RunBadge } from "./status-badge";
import styles from "./results.module.css";

/** A run as the list shows it (plain data: the page maps the store's rows to this). */
export interface RunRowView {
  id: string;
  suiteId: string;
  suiteName: string;
  status: string;
  startedBy: string;
  createdAt: string;
  counts: Record<EvalStatus, number>;
  costUsd: number;
  /** Judge calls made whose model had no price: the cost reads "unpriced" for them. */
  unpricedCalls: number;
  /** The suite version it graded: v1 the oldest. */
  version: number;
  /** A regrade's source run (Re-grade with…, `rubric-studio regrade`). */
  regradeOf?: string;
}

const COUNT_COLUMNS: { status: EvalStatus; label: string }[] = [
  { status: "passed", label: "Passed" },
  { status: "failed", label: "Failed" },
  { status: "deferred", label: "Deferred" },
  { status: "judge_error", label: "Judge err." },
  { status: "skipped", label: "Skipped" },
];

export function RunsTable({
  runs,
  showSuite = true,
  suiteFile,
}: {
  runs: RunRowView[];
  showSuite?: boolean;
  /** The suite's file name, on its own history: the hint's command names it, not "suite.yaml". */
  suiteFile?: string;
}) {
  if (runs.length === 0) {
    return (
      <div className={styles.empty} data-testid="runs-empty">
        No runs yet. Run {suiteFile ? "the suite" : "a suite"} from its editor, or from the command
        line with <code>npx rubric-studio eval --config {suiteFile ?? "<suite file>"} --store</code>
        .
      </div>
    );
  }
  return (
    <table className={styles.table} data-testid="runs-table">
      <thead>
        <tr>
          <th>Run</th>
          {showSuite ? <th>Suite</th> : null}
          <th>Version</th>
          <th>Status</th>
          <th>Started by</th>
          <th className={styles.num}>Pass rate</th>
          {COUNT_COLUMNS.map((c) => (
            <th key={c.status} className={styles.num}>
              {c.label}
            </th>
          ))}
          <th className={styles.num}>Cost</th>
        </tr>
      </thead>
      <tbody>
        {runs.map((run) => (
          <tr key={run.id} data-testid="run-row" data-run-id={run.id}>
            <td>
              <Link className={styles.rowLink} href={`/runs/${run.id}`}>
                {formatTime(run.createdAt)}
              </Link>
              {run.regradeOf ? (
                <>
                  {" "}
                  <span
                    className={styles.muted}
                    data-testid="run-regrade-mark"
                    title={`Re-grade of run ${run.regradeOf}: its stored candidates graded again`}
                  >
                    re-grade
                  </span>
                </>
              ) : null}
            </td>
            {showSuite ? (
              <td>
                <Link className={styles.rowLink} href={`/suites/${run.suiteId}/runs`}>
                  {run.suiteName}
                </Link>
              </td>
            ) : null}
            <td data-testid="run-version">v{run.version}</td>
            <td>
              <RunBadge status={run.status} counts={run.counts} />
            </td>
            <td>{run.startedBy}</td>
            <td className={styles.num} data-testid="run-pass-rate">
              {passRateText(run)}
            </td>
            {COUNT_COLUMNS.map((c) => (
              <td key={c.status} className={styles.num} data-count={c.status}>
                {run.counts[c.status]}
              </td>
            ))}
            <td className={styles.num} data-testid="run-row-cost">
              {costText(run)}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
