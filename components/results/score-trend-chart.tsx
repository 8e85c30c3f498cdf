"use client";

import { CartesianGrid, Line, LineChart, ReferenceLine, Tooltip, XAxis, YAxis } from "recharts";
import styles from "./results.module.css";
import { useWidth } from "./use-width";

export interface TrendSeries {
  key: string;
  label: string;
}

/** One x position per run (oldest first); a value per series, null where the run had no score for it. */
export type TrendRow = { run: string } & Record<string, number | string | null>;

const COLOURS = [
  "#7aa2ff",
  "#6fe39a",
  "#f0d46a",
  "#ff8a94",
  "#c59bff",
  "#5fd4d4",
  "#ffab6b",
  "#b6bdcb",
];

// As wide as its figure (useWidth measures it; ResponsiveContainer draws
// nothing at zero width, which hid the chart in narrow layouts). The legend is
// HTML under the plot, not recharts' own inside it: a matrix of 16 cells gave
// a legend that took most of the 220 px and squashed the lines flat.
export default function ScoreTrendChart({
  rows,
  series,
  threshold,
}: {
  rows: TrendRow[];
  series: TrendSeries[];
  threshold?: number;
}) {
  const { ref, width } = useWidth<HTMLDivElement>({ fallback: 640, min: 320 });
  return (
    <div ref={ref} data-testid="score-trend-plot">
      <LineChart
        width={width}
        height={220}
        data={rows}
        margin={{ top: 8, right: 24, bottom: 8, left: 0 }}
      >
        <CartesianGrid stroke="#dfe3e8" />
        <XAxis dataKey="run" stroke="#9aa3b5" fontSize={11} />
        <YAxis domain={[0, 1]} stroke="#9aa3b5" fontSize={11} />
        <Tooltip contentStyle={{ background: "#121620", border: "1px solid #2a3140" }} />
        {threshold !== undefined ? (
          <ReferenceLine y={threshold} stroke="#5d6678" strokeDasharray="4 4" />
        ) : null}
        {series.map((s, i) => (
          <Line
            key={s.key}
            dataKey={s.key}
            name={s.label}
            stroke={COLOURS[i % COLOURS.length]}
            isAnimationActive={false}
            connectNulls
            dot={{ r: 4 }}
          />
        ))}
      </LineChart>
      {series.length > 1 ? (
        <ul className={styles.trendLegend} data-testid="score-trend-legend">
          {series.map((s, i) => (
            <li key={s.key}>
              <span
                className={styles.trendSwatch}
                style={{ background: COLOURS[i % COLOURS.length] }}
                aria-hidden="true"
              />
              {s.label}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
