"use client";

import dynamic from "next/dynamic";
import type { AlphaBar } from "./agreement-chart-plot";
import styles from "./results.module.css";
import trust from "./trust.module.css";

// recharts measures the DOM, so it renders in the browser only (STACK.md).
const Plot = dynamic(() => import("./agreement-chart-plot"), {
  ssr: false,
  loading: () => <p className={styles.muted}>Loading chart…</p>,
});

/** Krippendorff's α per criterion with its bootstrap 95% interval as whiskers. */
export function AgreementChart({ bars }: { bars: AlphaBar[] }) {
  return (
    <figure className={trust.figure} data-testid="alpha-chart">
      <figcaption>
        Krippendorff&apos;s α per criterion, with its bootstrap 95% interval (1 = perfect agreement,
        0 = chance)
      </figcaption>
      {bars.length === 0 ? (
        <p className={styles.muted}>
          No criterion has a defined α (every rating the same, or too few).
        </p>
      ) : (
        <Plot bars={bars} />
      )}
    </figure>
  );
}
