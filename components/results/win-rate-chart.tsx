"use client";

import dynamic from "next/dynamic";
import type { WinRateBar } from "@/lib/engine/pairwise/pairwise-result";
import styles from "./results.module.css";
import trust from "./trust.module.css";

// recharts measures the DOM, so it renders in the browser only (STACK.md).
const Plot = dynamic(() => import("./win-rate-chart-plot"), {
  ssr: false,
  loading: () => <p className={styles.muted}>Loading chart…</p>,
});

export function WinRateChart({ bars }: { bars: WinRateBar[] }) {
  return (
    <figure className={trust.figure} data-testid="win-rate-chart">
      <figcaption>Win rates of A, B and ties, with Wilson 95% intervals</figcaption>
      <Plot bars={bars} />
    </figure>
  );
}
