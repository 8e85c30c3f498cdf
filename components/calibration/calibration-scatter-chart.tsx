"use client";

import {
  CartesianGrid,
  ReferenceLine,
  Scatter,
  ScatterChart,
  Tooltip,
  XAxis,
  YAxis,
  ZAxis,
} from "recharts";

export interface ScatterPoint {
  label: number;
  judged: number;
  outlier: boolean;
  name: string;
}

// Labelled (x) against judged (y): a perfect judge puts every point on the
// dashed y = x line; outliers (past the tolerance) are drawn red.
// Fixed size rather than ResponsiveContainer, as score-trend-chart.tsx does.
export default function CalibrationScatterChart({ points }: { points: ScatterPoint[] }) {
  const inside = points.filter((p) => !p.outlier);
  const off = points.filter((p) => p.outlier);
  return (
    <ScatterChart width={360} height={300} margin={{ top: 10, right: 16, bottom: 24, left: 0 }}>
      <CartesianGrid stroke="#dfe3e8" />
      <XAxis
        type="number"
        dataKey="label"
        name="labelled"
        domain={[0, 1]}
        ticks={[0, 0.25, 0.5, 0.75, 1]}
        stroke="#9aa3b5"
        fontSize={11}
        label={{
          value: "labelled",
          position: "insideBottom",
          offset: -14,
          fill: "#9aa3b5",
          fontSize: 11,
        }}
      />
      <YAxis
        type="number"
        dataKey="judged"
        name="judged"
        domain={[0, 1]}
        ticks={[0, 0.25, 0.5, 0.75, 1]}
        stroke="#9aa3b5"
        fontSize={11}
        label={{
          value: "judged",
          angle: -90,
          position: "insideLeft",
          offset: 14,
          fill: "#9aa3b5",
          fontSize: 11,
        }}
      />
      <ZAxis range={[70, 70]} />
      <ReferenceLine
        segment={[
          { x: 0, y: 0 },
          { x: 1, y: 1 },
        ]}
        stroke="#5d6678"
        strokeDasharray="4 4"
        ifOverflow="extendDomain"
      />
      <Tooltip
        cursor={{ strokeDasharray: "3 3" }}
        contentStyle={{ background: "#121620", border: "1px solid #2a3140" }}
      />
      <Scatter name="within tolerance" data={inside} fill="#7aa2ff" isAnimationActive={false} />
      <Scatter name="outliers" data={off} fill="#ff6b6b" isAnimationActive={false} />
    </ScatterChart>
  );
}
