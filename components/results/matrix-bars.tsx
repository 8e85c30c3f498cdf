"use client";

import dynamic from "next/dynamic";
import type { MatrixBar } from "./matrix-bars-plot";
import { cellHref, cellLabel, type MatrixCellView, sortCells } from "./matrix-heatmap";
import styles from "./results.module.css";
import { passRate } from "./run-outcome";
import trust from "./trust.module.css";

// recharts measures the DOM, so it renders in the browser only (STACK.md).
const Plot = dynamic(() => import("./matrix-bars-plot"), {
  ssr: false,
  loading: () => <p className={styles.muted}>Loading chart…</p>,
});

/** The bars of a run's matrix cells, in the heatmap's order (sortCells). */
export function matrixBars(runId: string, cells: readonly MatrixCellView[]): MatrixBar[] {
  return sortCells(cells).map((c) => {
    const rate = passRate(c);
    return {
      label: cellLabel(c),
      meanScore: c.meanScore,
      passRate: rate ?? 0,
      graded: rate !== null,
      // A cell where nothing passed reads 0%, one where nothing was graded says so: neither is a gap.
      passLabel: rate === null ? "nothing graded" : `${Math.round(rate * 100)}%`,
      meanLabel: c.meanScore === null ? "" : c.meanScore.toFixed(2),
      results: c.results,
      href: cellHref(runId, c),
    };
  });
}

/** Grouped bars per matrix cell: mean score and pass rate; a click on a cell's bars lists its results. */
export function MatrixBars({ runId, cells }: { runId: string; cells: MatrixCellView[] }) {
  const bars = matrixBars(runId, cells);
  const rows = cells.some((c) => c.agent) ? "candidate model" : "judge model";
  return (
    <figure className={trust.figure} data-testid="matrix-bars">
      <figcaption>
        Mean score and pass rate per {rows} × prompt cell (click a cell&apos;s bars to list its
        results)
      </figcaption>
      <Plot bars={bars} />
    </figure>
  );
}
