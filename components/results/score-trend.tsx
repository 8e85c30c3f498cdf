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
      ) : (
        <Chart rows={rows} series={series} threshold={threshold} />
      )}
    </figure>
  );
}
