import type { Report } from "../engine/results/report";
import type { Reporter } from "./reporter";
import { stableObject } from "./stable-json";

// Newline-delimited JSON for log pipelines: a start event, one event per
// result, and a summary event, each a complete JSON object on its own line.

const LEADING = ["type", "index", "id", "name", "status"];

function line(event: Record<string, unknown>): string {
  // U+2028 and U+2029 are legal in JSON strings but some line splitters treat
  // them as line breaks, so they are written as escapes.
  return JSON.stringify(stableObject(event, LEADING)).replace(/[\u2028\u2029]/g, (c) =>
    c === "\u2028" ? "\\u2028" : "\\u2029",
  );
}

function renderNdjson(report: Report): string {
  const lines = [
    line({
      type: "start",
      schemaVersion: report.schemaVersion,
      tool: report.tool,
      suite: report.suite,
      startedAt: report.startedAt,
      total: report.results.length,
      ...(report.budget ? { budget: { maxCostUsd: report.budget.maxCostUsd } } : {}),
    }),
    ...report.results.map((result, index) => line({ type: "result", index: index + 1, ...result })),
    line({
      type: "summary",
      finishedAt: report.finishedAt,
      durationMs: report.durationMs,
      ...report.summary,
      ...(report.budget ? { budget: report.budget } : {}),
      ...(report.selfGrading ? { selfGrading: report.selfGrading } : {}),
    }),
  ];
  return `${lines.join("\n")}\n`;
}

export const ndjsonReporter: Reporter = {
  name: "ndjson",
  extension: "ndjson",
  description: "application/x-ndjson: one JSON event per line (start, result, summary)",
  render: renderNdjson,
};
