"use client";

import { Bar, BarChart, CartesianGrid, Cell, ErrorBar, Tooltip, XAxis, YAxis } from "recharts";
import type { WinRateBar } from "@/lib/engine/pairwise/pairwise-result";

const COLOURS: Record<WinRateBar["side"], string> = { A: "#3b5bdb", B: "#2b8a3e", tie: "#8a94a3" };

// Fixed size rather than ResponsiveContainer, as in score-trend-chart.tsx.
export default function WinRateChartPlot({ bars }: { bars: WinRateBar[] }) {
  // ErrorBar takes the distances below and above the bar's value; minPointSize
  // keeps a 0% bar drawn, so its interval's whisker still shows.
  const data = bars.map((b) => ({
    name: b.side === "tie" ? "tie" : `${b.side}: ${b.label}`,
    rate: b.rate,
    ci: b.ci95 ? [b.rate - b.ci95.low, b.ci95.high - b.rate] : [0, 0],
    side: b.side,
  }));
  return (
    <BarChart
      width={420}
      height={220}
      data={data}
      margin={{ top: 8, right: 16, bottom: 8, left: 0 }}
    >
      <CartesianGrid stroke="#dfe3e8" />
      <XAxis dataKey="name" stroke="#5d6877" fontSize={11} interval={0} />
      <YAxis domain={[0, 1]} stroke="#5d6877" fontSize={11} />
      <Tooltip
        contentStyle={{ background: "#ffffff", border: "1px solid #dfe3e8" }}
        formatter={(v) => (typeof v === "number" ? `${Math.round(v * 100)}%` : String(v))}
      />
      <Bar
        dataKey="rate"
        name="win rate"
        isAnimationActive={false}
        maxBarSize={70}
        minPointSize={2}
      >
        {data.map((d) => (
          <Cell key={d.side} fill={COLOURS[d.side]} />
        ))}
        <ErrorBar dataKey="ci" width={8} stroke="#b35c00" strokeWidth={2} />
      </Bar>
    </BarChart>
  );
}
