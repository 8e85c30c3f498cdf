// Display formatting shared by the results views. Pure, so server and client
// components render the same text.

import type { Scale } from "../../lib/config/types";
import {
  formatScore as formatEngineScore,
  formatUsd as formatEngineUsd,
} from "../../lib/engine/results/format-score";

/** The project's one money format (lib/engine: the CLI's and the reports' too), with a word for a cost that is not known. */
export function formatUsd(value: number | null | undefined): string {
  return value === null || value === undefined ? "unknown" : formatEngineUsd(value);
}

export function formatInt(value: number): string {
  return value.toLocaleString("en-US");
}

export function formatScore(value: number | null | undefined): string {
  return value === null || value === undefined ? "—" : value.toFixed(2);
}

/**
 * A score or threshold on the rubric's own scale ("C", "4.0/5", "pass"), as the result page shows
 * it; 0..1 with two decimals when the scale is not known.
 */
export function formatScaled(
  value: number | null | undefined,
  scale: Scale | null | undefined,
  passed?: boolean,
): string {
  if (value === null || value === undefined || !scale) return formatScore(value);
  return formatEngineScore({ score: value, scale, ...(passed === undefined ? {} : { passed }) });
}

export function formatDelta(value: number | null): string {
  if (value === null) return "—";
  return `${value > 0 ? "+" : value < 0 ? "−" : "±"}${Math.abs(value).toFixed(2)}`;
}

/** A fixed, locale-independent form, so the server's and the browser's renders agree. */
export function formatTime(value: Date | string): string {
  const iso = (typeof value === "string" ? new Date(value) : value).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)} UTC`;
}

export function formatMs(value: number): string {
  return value < 1000 ? `${Math.round(value)} ms` : `${(value / 1000).toFixed(1)} s`;
}

/**
 * A result's latency: "—" when no judge call was made (deferred, or skipped before any call), whose
 * stored 0 ms timed nothing; its time otherwise.
 */
export function formatLatency(result: {
  status: string;
  judgeCalls: number;
  latencyMs: number;
}): string {
  const noCall =
    result.status === "deferred" || (result.status === "skipped" && result.judgeCalls === 0);
  return noCall ? "—" : formatMs(result.latencyMs);
}

/** A comparison's winner with its side's label: "A (baseline)", or "tie" / "uncertain". */
export function winnerText(
  winner: "A" | "B" | "tie" | "uncertain",
  labels: { a: string; b: string },
): string {
  if (winner === "A") return `A (${labels.a})`;
  if (winner === "B") return `B (${labels.b})`;
  return winner;
}

/** A review's decision as people read it. */
export function decisionText(status: string): string {
  return status === "human_review" ? "human review" : status;
}

/**
 * An eval's name split into the eval and its cell ("model=…, prompt=#2"), so the cell can show on a
 * line of its own.
 */
export function splitCellName(name: string): { eval: string; cell: string | null } {
  const match = /^(.*) \[([^\[\]]*)\]$/s.exec(name);
  return match ? { eval: match[1]!, cell: match[2]! } : { eval: name, cell: null };
}

/** A run's cost; calls of an unpriced model make it "unpriced" (or "$x + unpriced"), never a made-up $0. */
export function costText(shown: { costUsd: number; unpricedCalls: number }): string {
  if (shown.unpricedCalls === 0) return formatUsd(shown.costUsd);
  return shown.costUsd > 0 ? `${formatUsd(shown.costUsd)} + unpriced` : "unpriced";
}
