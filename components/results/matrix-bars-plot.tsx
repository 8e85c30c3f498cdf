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
    <BarChart width={Math.max(420, 130 * bars.length + 80)} height={260} data={bars} margin={{ top: 8, right: 16, bottom: 8, left: 0 }}>
      <CartesianGrid stroke="#1f2532" />
      <XAxis dataKey="label" stroke="#9aa3b5" fontSize={11} interval={0} />
      <YAxis domain={[0, 1]} stroke="#9aa3b5" fontSize={11} />
      <Tooltip contentStyle={{ background: "#121620", border: "1px solid #2a3140" }} formatter={(v) => (typeof v === "number" ? v.toFixed(2) : "—")} />
      <Legend />
      <Bar dataKey="meanScore" name="mean score" fill="#7aa2ff" isAnimationActive={false} cursor="pointer" onClick={open} />
      <Bar dataKey="passRate" name="pass rate" fill="#6fe39a" isAnimationActive={false} cursor="pointer" onClick={open} />
    </BarChart>
  );
}
