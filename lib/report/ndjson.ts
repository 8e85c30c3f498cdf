import type { Reporter } from "./reporter";
import { stableJson } from "./stable-json";
import { renderWhole, type ResultWriter } from "./result-stream";

// Newline-delimited JSON for log pipelines: a start event, one event per
// result, and a summary event, each a complete JSON object on its own line.

const LEADING = ["type", "index", "id", "name", "status"];

function line(event: Record<string, unknown>): string {
  // U+2028 and U+2029 are legal in JSON strings but some line splitters treat
  // them as line breaks, so they are written as escapes.
  return stableJson(event, LEADING).replace(/[\u2028\u2029]/g, (c) =>
    c === "\u2028" ? "\\u2028" : "\\u2029",
  );
}

/** Each event is a line as soon as it is known (issue 20): a start, a result each, the summary. */
export function ndjsonWriter(): ResultWriter {
  let index = 0;
  return {
    start: (run) =>
      `${line({
        type: "start",
        schemaVersion: run.schemaVersion,
        tool: run.tool,
        suite: run.suite,
        startedAt: run.startedAt,
        total: run.total,
        ...(run.maxCostUsd !== undefined ? { budget: { maxCostUsd: run.maxCostUsd } } : {}),
      })}\n`,
    result: (result) => `${line({ type: "result", index: ++index, ...result })}\n`,
    end: (report) => ({
      after: `${line({
        type: "summary",
        finishedAt: report.finishedAt,
        durationMs: report.durationMs,
        ...report.summary,
        ...(report.budget ? { budget: report.budget } : {}),
        ...(report.selfGrading ? { selfGrading: report.selfGrading } : {}),
      })}\n`,
    }),
  };
}

export const ndjsonReporter: Reporter = {
  name: "ndjson",
  extension: "ndjson",
  description: "application/x-ndjson: one JSON event per line (start, result, summary)",
  render: (report) => renderWhole(ndjsonWriter(), report),
  stream: ndjsonWriter,
};
