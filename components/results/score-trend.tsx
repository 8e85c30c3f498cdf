"use client";

import dynamic from "next/dynamic";
import type { TrendRow, TrendSeries } from "./score-trend-chart";
import styles from "./results.module.css";

// recharts measures the DOM, so it renders in the browser only (STACK.md).
const Chart = dynamic(() => import("./score-trend-chart"), {
  ssr: false,
  loading: () => <p className={styles.muted}>Loading chart…</p>,
});

export function ScoreTrend({
  title,
  rows,
  series,
  threshold,
}: {
  title: string;
  rows: TrendRow[];
  series: TrendSeries[];
  threshold?: number;
}) {
  return (
    <figure className={styles.card} data-testid="score-trend" data-eval={title}>
      <figcaption>
        <strong>{title}</strong>{" "}
        <span className={styles.muted}>
          score per run, oldest to newest{threshold !== undefined ? "; dashed: threshold" : ""}
        </span>
      </figcaption>
      {rows.length === 0 ? (
        <p className={styles.muted}>No scores yet.</p>
      ) : !graded(rows, series) ? (
        // An empty plot would read as a chart that failed to draw.
        <p className={styles.muted} data-testid="score-trend-ungraded">
          Nothing graded in {rows.length === 1 ? "this run" : `these ${rows.length} runs`}: every
          result of this eval deferred or was skipped.
        </p>
      ) : (
        <Chart rows={rows} series={series} threshold={threshold} />
      )}
    </figure>
  );
}

/** Whether any run gave any cell of the eval a score. */
function graded(rows: TrendRow[], series: TrendSeries[]): boolean {
  return rows.some((row) => series.some((s) => typeof row[s.key] === "number"));
}
