import type { EvalResult } from "../engine/results/report";
import {
  transcriptAgent,
  truncationMarker,
  type TranscriptEntry,
} from "../engine/results/transcript";

// A live run's transcript in short lines, for the terminal: one line per
// step, each cut to a width a terminal shows whole. The full text (what the
// judge read) is in the md, html and json reports.

const LINE_CHARS = 160;

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > LINE_CHARS ? `${flat.slice(0, LINE_CHARS - 1)}…` : flat;
}

function entryLine(entry: TranscriptEntry): string {
  if (entry.kind === "user") return `user: ${oneLine(entry.text)}`;
  if (entry.kind === "assistant") return `assistant: ${oneLine(entry.text)}`;
  if (entry.kind === "final") return `final reply: ${oneLine(entry.text)}`;
  const marker =
    entry.truncatedFrom === undefined
      ? ""
      : ` ${truncationMarker(entry.result.length, entry.truncatedFrom)}`;
  return `tool ${entry.name} ${oneLine(JSON.stringify(entry.arguments) ?? "{}")} → ${entry.isError ? "error: " : ""}${oneLine(entry.result)}${marker}`;
}

/** The heading and step lines of a result's transcript; empty for a fixed response. */
export function transcriptLines(result: EvalResult): string[] {
  const t = result.candidate.transcript;
  const lines: string[] = [];
  if (t) {
    lines.push(
      `transcript (server ${t.server}, agent ${transcriptAgent(t)}, ${t.turns} of ${t.maxTurns} turns):`,
    );
    lines.push(...t.entries.map((e) => `  ${entryLine(e)}`));
    if (t.stopNote) lines.push(`  [${oneLine(t.stopNote)}]`);
  }
  const stderr = result.candidate.serverStderr?.trim();
  if (stderr)
    lines.push(
      "server stderr (last lines):",
      ...stderr
        .split("\n")
        .slice(-5)
        .map((l) => `  ${oneLine(l)}`),
    );
  return lines;
}
