"use client";

import { useRouter } from "next/navigation";
import { Bar, BarChart, CartesianGrid, Legend, Tooltip, XAxis, YAxis } from "recharts";

export interface MatrixBar {
  label: string;
  meanScore: number | null;
  passRate: number;
  results: number;
  href: string;
}

// Fixed size rather than ResponsiveContainer, as in score-trend-chart.tsx.
export default function MatrixBarsPlot({ bars }: { bars: MatrixBar[] }) {
  const router = useRouter();
  const open = (entry: unknown) => {
    const href = (entry as { payload?: MatrixBar } | undefined)?.payload?.href;
    if (href) router.push(href);
  };
  return (
    <BarChart width={Math.max(420, 110 * bars.length + 80)} height={300} data={bars} margin={{ top: 8, right: 16, bottom: 8, left: 0 }}>
      <CartesianGrid stroke="#dfe3e8" />
      <XAxis dataKey="label" stroke="#5d6877" fontSize={11} interval={0} angle={-20} textAnchor="end" height={70} />
      <YAxis domain={[0, 1]} stroke="#5d6877" fontSize={11} />
      <Tooltip contentStyle={{ background: "#ffffff", border: "1px solid #dfe3e8" }} formatter={(v) => (typeof v === "number" ? v.toFixed(2) : "—")} />
      <Legend />
      <Bar dataKey="meanScore" name="mean score" fill="#3b5bdb" isAnimationActive={false} maxBarSize={40} cursor="pointer" onClick={open} />
      <Bar dataKey="passRate" name="pass rate" fill="#2b8a3e" isAnimationActive={false} maxBarSize={40} cursor="pointer" onClick={open} />
    </BarChart>
  );
}
