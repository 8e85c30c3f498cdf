"use client";

import { useRouter } from "next/navigation";
import {
  Bar,
  BarChart,
  CartesianGrid,
  Cell,
  LabelList,
  Legend,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import { useWidth } from "./use-width";

export interface MatrixBar {
  label: string;
  meanScore: number | null;
  passRate: number;
  /** False where every result deferred or was skipped: its pass-rate mark is grey, as the heatmap's cell, not a green 0%. */
  graded: boolean;
  /** Written beside the pass-rate bar: a 0% bar has no length, and must not read as missing data. */
  passLabel: string;
  /** Written beside the mean-score bar ("0.00"); "" when nothing was graded. */
  meanLabel: string;
  results: number;
  href: string;
}

const FONT_PX = 12;
/** Roughly the width of one character of the axis font: labels get the room their longest line needs. */
const CHAR_PX = 7;
const ROW_PX = 46;
/**
 * The length a bar of 0 is drawn at: recharts draws no bar (and so no label) for a value of
 * 0, and a cell where nothing passed would read as an empty row.
 */
export const ZERO_BAR_PX = 3;
const PASS_FILL = "#2b8a3e";
/** The heatmap's grey for a cell with nothing graded. */
export const NOTHING_GRADED_FILL = "#adb5bd";

/** The room right of the plot for the labels beside the bars: a 100% bar ends at the plot's edge. */
export function labelRoom(bars: readonly MatrixBar[]): number {
  const longest = Math.max(4, ...bars.flatMap((b) => [b.passLabel.length, b.meanLabel.length]));
  return longest * CHAR_PX + 12;
}

/** A label in lines of its " · " parts (judge model, prompt), so a long name wraps rather than being cut. */
export function labelLines(label: string): string[] {
  return label.split(" · ");
}

/**
 * The width the label column needs for its longest line, within a third of the chart (bounded for a
 * pathological name).
 */
export function labelWidth(labels: string[], chartWidth: number): number {
  const longest = Math.max(0, ...labels.flatMap(labelLines).map((line) => line.length));
  return Math.min(Math.max(80, longest * CHAR_PX + 16), Math.max(160, Math.floor(chartWidth / 3)));
}

function CellTick({ x, y, payload }: { x?: number; y?: number; payload?: { value: string } }) {
  const lines = labelLines(payload?.value ?? "");
  return (
    <text x={x} y={y} textAnchor="end" fontSize={FONT_PX} fill="#3d4755">
      <title>{payload?.value}</title>
      {lines.map((line, i) => (
        <tspan
          key={i}
          x={x}
          dx={-4}
          dy={i === 0 ? -((lines.length - 1) * (FONT_PX + 2)) / 2 + 4 : FONT_PX + 2}
        >
          {line}
        </tspan>
      ))}
    </text>
  );
}

// Horizontal bars, as wide as the figure: one row per matrix cell with its
// whole name beside it.
export default function MatrixBarsPlot({ bars }: { bars: MatrixBar[] }) {
  const router = useRouter();
  const { ref: box, width } = useWidth<HTMLDivElement>({ fallback: 720, min: 360 });
  const open = (entry: unknown) => {
    const href = (entry as { payload?: MatrixBar } | undefined)?.payload?.href;
    if (href) router.push(href);
  };
  return (
    <div ref={box} data-testid="matrix-bars-plot" data-width={width}>
      <BarChart
        layout="vertical"
        width={width}
        height={70 + ROW_PX * bars.length}
        data={bars}
        margin={{ top: 8, right: labelRoom(bars), bottom: 8, left: 8 }}
        barCategoryGap={8}
      >
        <CartesianGrid stroke="#dfe3e8" horizontal={false} />
        <XAxis type="number" domain={[0, 1]} stroke="#5d6877" fontSize={FONT_PX} />
        <YAxis
          type="category"
          dataKey="label"
          width={labelWidth(
            bars.map((b) => b.label),
            width,
          )}
          interval={0}
          tick={<CellTick />}
          stroke="#5d6877"
        />
        <Tooltip
          contentStyle={{ background: "#ffffff", border: "1px solid #dfe3e8" }}
          formatter={(v, _name, item) =>
            (item?.payload as MatrixBar | undefined)?.graded === false
              ? "nothing graded"
              : typeof v === "number"
                ? v.toFixed(2)
                : "—"
          }
        />
        <Legend />
        <Bar
          dataKey="meanScore"
          name="mean score"
          fill="#3b5bdb"
          isAnimationActive={false}
          maxBarSize={16}
          // No mean (nothing graded) draws no bar: its pass rate says so.
          minPointSize={(value: unknown) => (typeof value === "number" ? ZERO_BAR_PX : 0)}
          cursor="pointer"
          onClick={open}
        >
          <LabelList dataKey="meanLabel" position="right" fontSize={FONT_PX} fill="#3d4755" />
        </Bar>
        <Bar
          dataKey="passRate"
          name="pass rate"
          fill={PASS_FILL}
          isAnimationActive={false}
          maxBarSize={16}
          minPointSize={ZERO_BAR_PX}
          cursor="pointer"
          onClick={open}
        >
          {bars.map((b, i) => (
            <Cell key={i} fill={b.graded ? PASS_FILL : NOTHING_GRADED_FILL} />
          ))}
          <LabelList dataKey="passLabel" position="right" fontSize={FONT_PX} fill="#3d4755" />
        </Bar>
      </BarChart>
    </div>
  );
}
