"use client";

import dynamic from "next/dynamic";
import type { ScatterPoint } from "./calibration-scatter-chart";
import type { TrendRow, TrendSeries } from "../results/score-trend-chart";
import styles from "../results/results.module.css";

// recharts measures the DOM, so the charts render in the browser only (STACK.md).
const Scatter = dynamic(() => import("./calibration-scatter-chart"), {
  ssr: false,
  loading: () => <p className={styles.muted}>Loading chart…</p>,
});
// The drift line is the history page's trend chart: one line per criterion, 0..1.
const Trend = dynamic(() => import("../results/score-trend-chart"), {
  ssr: false,
  loading: () => <p className={styles.muted}>Loading chart…</p>,
});

export function CalibrationScatter({ points }: { points: ScatterPoint[] }) {
  return (
    <div
      data-testid="calibration-scatter"
      data-points={points.length}
      data-outliers={points.filter((p) => p.outlier).length}
    >
      <Scatter points={points} />
    </div>
  );
}

export function MaeDriftChart({ rows, series }: { rows: TrendRow[]; series: TrendSeries[] }) {
  return <Trend rows={rows} series={series} />;
}
