import Link from "next/link";
import { formatTime } from "./format";
import styles from "./results.module.css";

// The pairwise judge's position bias beyond one comparison: pooled over a
// run's comparisons (the run page), and run by run (a suite's history), so a
// judge that starts favouring a slot shows as a trend, not only per pair.

export interface PositionBiasView {
  rate: number | null;
  biased: number;
  comparable: number;
  favoredFirst: number;
  favoredSecond: number;
  comparisons: number;
}

const pct = (rate: number | null) => (rate === null ? "n/a" : `${Math.round(rate * 100)}%`);

function detail(bias: PositionBiasView): string {
  const favoured = [
    bias.favoredFirst ? `${bias.favoredFirst} favour the first slot` : "",
    bias.favoredSecond ? `${bias.favoredSecond} favour the second` : "",
  ].filter(Boolean);
  return [`${bias.biased} of ${bias.comparable} pairs`, ...favoured].join(" · ");
}

/** The run page's card: biased pairs over pairs with two definite verdicts, over every comparison of the run. */
export function RunPositionBiasCard({ bias }: { bias: PositionBiasView }) {
  return (
    <div className={styles.stat} data-testid="run-position-bias">
      <div className={styles.label}>
        Position bias ({bias.comparisons === 1 ? "1 comparison" : `${bias.comparisons} comparisons`}
        )
      </div>
      <div className={styles.value}>{pct(bias.rate)}</div>
      <div className={styles.label}>{detail(bias)}</div>
    </div>
  );
}

/** A suite's history: the position-bias rate of each run that compared anything, newest first. */
export function PositionBiasHistory({
  runs,
}: {
  runs: (PositionBiasView & { runId: string; createdAt: string })[];
}) {
  return (
    <table className={styles.table} data-testid="position-bias-history">
      <thead>
        <tr>
          <th>Run</th>
          <th className={styles.num}>Position bias</th>
          <th>Pairs</th>
          <th className={styles.num}>Comparisons</th>
        </tr>
      </thead>
      <tbody>
        {runs.map((run) => (
          <tr key={run.runId} data-testid="position-bias-row" data-run-id={run.runId}>
            <td>
              <Link className={styles.rowLink} href={`/runs/${run.runId}`}>
                {formatTime(run.createdAt)}
              </Link>
            </td>
            <td className={styles.num}>{pct(run.rate)}</td>
            <td className={styles.muted}>{detail(run)}</td>
            <td className={styles.num}>{run.comparisons}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
