import Link from "next/link";
import type { EvalStatus } from "@/lib/engine/report";
import { formatTime, formatUsd } from "./format";
import { StatusBadge } from "./status-badge";
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
}

const COUNT_COLUMNS: { status: EvalStatus; label: string }[] = [
  { status: "passed", label: "Passed" },
  { status: "failed", label: "Failed" },
  { status: "deferred", label: "Deferred" },
  { status: "judge_error", label: "Judge err." },
  { status: "skipped", label: "Skipped" },
];

export function RunsTable({ runs, showSuite = true }: { runs: RunRowView[]; showSuite?: boolean }) {
  if (runs.length === 0) {
    return (
      <div className={styles.empty} data-testid="runs-empty">
        No runs yet. Run a suite from its editor, or from the command line with{" "}
        <code>npx rubric-studio eval --config suite.yaml --store</code>.
      </div>
    );
  }
  return (
    <table className={styles.table} data-testid="runs-table">
      <thead>
        <tr>
          <th>Run</th>
          {showSuite ? <th>Suite</th> : null}
          <th>Status</th>
          <th>Started by</th>
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
            </td>
            {showSuite ? (
              <td>
                <Link className={styles.rowLink} href={`/suites/${run.suiteId}/runs`}>
                  {run.suiteName}
                </Link>
              </td>
            ) : null}
            <td>
              <StatusBadge status={run.status} />
            </td>
            <td>{run.startedBy}</td>
            {COUNT_COLUMNS.map((c) => (
              <td key={c.status} className={styles.num} data-count={c.status}>
                {run.counts[c.status]}
              </td>
            ))}
            <td className={styles.num}>{formatUsd(run.costUsd)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
