"use client";

import {
  Bar,
  BarChart,
  CartesianGrid,
  ErrorBar,
  ReferenceLine,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";

export interface AlphaBar {
  label: string;
  alpha: number;
  low: number | null;
  high: number | null;
}

// Fixed size rather than ResponsiveContainer, as in score-trend-chart.tsx.
export default function AgreementChartPlot({ bars }: { bars: AlphaBar[] }) {
  // ErrorBar takes the distances below and above the bar's value.
  const data = bars.map((b) => ({
    ...b,
    ci: b.low === null || b.high === null ? [0, 0] : [b.alpha - b.low, b.high - b.alpha],
  }));
  const min = Math.min(0, ...bars.map((b) => b.low ?? b.alpha));
  return (
    <BarChart
      width={Math.max(360, 110 * bars.length + 80)}
      height={290}
      data={data}
      margin={{ top: 8, right: 16, bottom: 8, left: 0 }}
    >
      <CartesianGrid stroke="#dfe3e8" />
      <XAxis
        dataKey="label"
        stroke="#5d6877"
        fontSize={11}
        interval={0}
        angle={-20}
        textAnchor="end"
        height={80}
      />
      <YAxis domain={[Math.floor(min * 4) / 4, 1]} stroke="#5d6877" fontSize={11} />
      <ReferenceLine y={0} stroke="#5d6877" />
      <Tooltip
        contentStyle={{ background: "#ffffff", border: "1px solid #dfe3e8" }}
        formatter={(v) => (typeof v === "number" ? v.toFixed(3) : String(v))}
      />
      <Bar
        dataKey="alpha"
        name="α"
        fill="#3b5bdb"
        isAnimationActive={false}
        maxBarSize={70}
        minPointSize={2}
      >
        <ErrorBar dataKey="ci" width={6} stroke="#b35c00" strokeWidth={2} />
      </Bar>
    </BarChart>
  );
}
