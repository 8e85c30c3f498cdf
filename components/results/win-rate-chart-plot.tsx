"use client";

import { Bar, BarChart, CartesianGrid, Cell, ErrorBar, Tooltip, XAxis, YAxis } from "recharts";
import type { WinRateBar } from "@/lib/engine/pairwise/pairwise-result";

const COLOURS: Record<WinRateBar["side"], string> = { A: "#7aa2ff", B: "#6fe39a", tie: "#9aa3b5" };

// Fixed size rather than ResponsiveContainer, as in score-trend-chart.tsx.
export default function WinRateChartPlot({ bars }: { bars: WinRateBar[] }) {
  // ErrorBar takes the distances below and above the bar's value.
  const data = bars.map((b) => ({ name: b.side === "tie" ? "tie" : `${b.side}: ${b.label}`, rate: b.rate, ci: b.ci95 ? [b.rate - b.ci95.low, b.ci95.high - b.rate] : [0, 0], side: b.side }));
  return (
    <BarChart width={420} height={220} data={data} margin={{ top: 8, right: 16, bottom: 8, left: 0 }}>
      <CartesianGrid stroke="#1f2532" />
      <XAxis dataKey="name" stroke="#9aa3b5" fontSize={11} interval={0} />
      <YAxis domain={[0, 1]} stroke="#9aa3b5" fontSize={11} />
      <Tooltip contentStyle={{ background: "#121620", border: "1px solid #2a3140" }} formatter={(v) => (typeof v === "number" ? `${Math.round(v * 100)}%` : String(v))} />
      <Bar dataKey="rate" name="win rate" isAnimationActive={false}>
        {data.map((d) => (
          <Cell key={d.side} fill={COLOURS[d.side]} />
        ))}
        <ErrorBar dataKey="ci" width={8} stroke="#f0d46a" strokeWidth={2} />
      </Bar>
    </BarChart>
  );
}
