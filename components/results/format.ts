// Display formatting shared by the results views. Pure, so server and client
// components render the same text.

import { formatUsd as formatEngineUsd } from "../../lib/engine/format-score";

/** The CLI's dollar format (lib/engine), with a word for a cost that is not known. */
export function formatUsd(value: number | null | undefined): string {
  return value === null || value === undefined ? "unknown" : formatEngineUsd(value);
}

export function formatInt(value: number): string {
  return value.toLocaleString("en-US");
}

export function formatScore(value: number | null | undefined): string {
  return value === null || value === undefined ? "—" : value.toFixed(2);
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
