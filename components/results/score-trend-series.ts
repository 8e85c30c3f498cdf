import { formatTime } from "./format";
import type { TrendRow, TrendSeries } from "./score-trend-chart";

/** What the chart reads of a point of lib/store's evalTrend (its TrendPoint; components do not import lib/store). */
export interface TrendPointView {
  runId: string;
  runCreatedAt: Date;
  resultKey: string;
  name: string;
  cellModel: string | null;
  cellPrompt: number | null;
  score: number | null;
  threshold: number;
}

/**
 * evalTrend's points (newest run first, each run's cells in the suite's order) as chart rows, oldest
 * run first, one series per result key (matrix cell). The legend lists the cells in the suite's
 * order, as the newest run lists them (`sonnet #1` before `#2`, `q2` before `q10`), then any cell
 * only older runs graded.
 */
export function trendChartOf(points: readonly TrendPointView[]): {
  rows: TrendRow[];
  series: TrendSeries[];
  threshold?: number;
} {
  const series = new Map<string, TrendSeries>();
  for (const p of points) {
    const label = p.cellModel || p.cellPrompt ? p.name.slice(p.name.indexOf("[")) : p.name;
    if (!series.has(p.resultKey)) series.set(p.resultKey, { key: `s${series.size}`, label });
  }
  const rows = new Map<string, TrendRow>();
  for (const p of [...points].reverse()) {
    const row = rows.get(p.runId) ?? ({ run: formatTime(p.runCreatedAt).slice(5, 19) } as TrendRow);
    row[series.get(p.resultKey)!.key] = p.score;
    rows.set(p.runId, row);
  }
  return {
    rows: [...rows.values()],
    series: [...series.values()],
    threshold: points[0]?.threshold,
  };
}
