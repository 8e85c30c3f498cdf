"use client";

import dynamic from "next/dynamic";
import type { MatrixBar } from "./matrix-bars-plot";
import styles from "./results.module.css";
import trust from "./trust.module.css";

// recharts measures the DOM, so it renders in the browser only (STACK.md).
const Plot = dynamic(() => import("./matrix-bars-plot"), { ssr: false, loading: () => <p className={styles.muted}>Loading chart…</p> });

/** Grouped bars per matrix cell: mean score and pass rate; a click on a cell's bars lists its results. */
export function MatrixBars({ bars }: { bars: MatrixBar[] }) {
  return (
    <figure className={trust.figure} data-testid="matrix-bars">
      <figcaption>Mean score and pass rate per judge model × prompt cell (click a cell&apos;s bars to list its results)</figcaption>
      <Plot bars={bars} />
    </figure>
  );
}
