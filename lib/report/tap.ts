import { selfGradingLines } from "../engine/results/self-grading";
import type { EvalResult } from "../engine/results/report";
import type { Reporter } from "./reporter";
import { oneLine, stripControl } from "./escape";
import {
  criterionOutcome,
  formatLocation,
  formatVerdict,
  judgeErrors,
  judgeReasoningText,
  formatInt,
  formatPrevious,
  plural,
} from "./format";
import { tidyNumbers } from "./tidy-numbers";
import { renderWhole, type ResultWriter } from "./result-stream";
import { resultLabel, skippedSummaryLabel } from "./status";

// TAP 14. A `# SKIP` directive makes a test point count as ok, so only a
// deferred eval (which the guide reports as passing with a note) uses it; an
// eval skipped by the budget was never graded and is `not ok` without a
// directive, so that no TAP consumer reads it as passed; its message says why
// (budget, cancelled, interrupted).

/** TAP 14 reserves `#` for directives and `\` for escaping it in descriptions. */
function description(text: string): string {
  return oneLine(text).replace(/\\/g, "\\\\").replace(/#/g, "\\#");
}

/** JSON is a subset of YAML 1.2 flow style, so each value is written as JSON. */
function yamlValue(value: unknown, key: string): string {
  return JSON.stringify(tidyNumbers(value ?? null, key));
}

function diagnostics(result: EvalResult): string[] {
  const fields: [string, unknown][] = [];
  // A budget skip is `not ok` with no directive, so the message is what tells
  // a reader that it was skipped rather than failed.
  if (result.status === "skipped" || result.status === "deferred") {
    fields.push([
      "message",
      stripControl(`${resultLabel(result)}: ${result.note ?? result.reason}`),
    ]);
  }
  fields.push(
    ["status", result.status],
    ["score", result.score],
    ["display", result.display],
    ["threshold", result.threshold],
    ["reason", stripControl(result.reason)],
  );
  if (result.note !== undefined) fields.push(["note", stripControl(result.note)]);
  if (result.previous) fields.push(["previous", formatPrevious(result)]);
  const reasoning = judgeReasoningText(result);
  if (reasoning) fields.push(["reasoning", stripControl(reasoning)]);
  if (result.vacuous) fields.push(["vacuous", true]);
  if (result.gates.length) fields.push(["gates", result.gates.map(stripControl)]);
  const errors = judgeErrors(result);
  if (errors.length) fields.push(["judge_errors", errors.map(stripControl)]);
  if (result.status === "failed" || result.status === "judge_error") {
    const criteria = result.criteria.map((c) => ({
      name: stripControl(c.name),
      outcome: criterionOutcome(c),
      score: c.score,
      threshold: c.threshold,
      // Several judges: how they combined, and each one's own verdict.
      ...(c.combined
        ? {
            combined: c.combined.summary,
            judges: c.verdicts.map((v) => stripControl(formatVerdict(v))),
          }
        : {}),
    }));
    if (criteria.length) fields.push(["criteria", criteria]);
  }
  fields.push(["cost_usd", result.costUsd], ["judge_calls", result.judgeCalls]);
  if (result.location) fields.push(["at", formatLocation(result)]);
  return ["  ---", ...fields.map(([key, value]) => `  ${key}: ${yamlValue(value, key)}`), "  ..."];
}

function testPoint(result: EvalResult, number: number): string[] {
  const name = description(result.name);
  switch (result.status) {
    case "passed":
      return [`ok ${number} - ${name}`, ...diagnostics(result)];
    case "deferred":
      return [
        `ok ${number} - ${name} # SKIP deferred: ${description(result.note ?? result.reason)}`,
        ...diagnostics(result),
      ];
    case "failed":
    case "judge_error":
    case "skipped":
      return [`not ok ${number} - ${name}`, ...diagnostics(result)];
  }
}

/** The plan first (the planned cells), a test point per result as it arrives, the summary as comments (issue 20). */
export function tapWriter(): ResultWriter {
  let number = 0;
  return {
    start: (run) => `TAP version 14\n1..${run.total}\n`,
    result: (result) => `${testPoint(result, ++number).join("\n")}\n`,
    end: (report) => {
      const s = report.summary;
      const lines = [
        `# ${plural(s.total, "cell")}: ${formatInt(s.passed)} passed (${formatInt(s.vacuous)} vacuous), ${formatInt(s.failed)} failed, ${formatInt(s.deferred)} deferred, ` +
          `${formatInt(s.judgeErrors)} judge error${s.judgeErrors === 1 ? "" : "s"}, ${formatInt(s.skipped)} ${skippedSummaryLabel(report)}`,
        `# ${plural(s.judgeCalls, "judge call")}, cost ${s.costUsd.toFixed(4)} USD`,
        ...selfGradingLines(report.selfGrading).map((w) => `# ${description(w)}`),
      ];
      return { after: `${lines.join("\n")}\n` };
    },
  };
}

export const tapReporter: Reporter = {
  name: "tap",
  extension: "tap",
  description: "text/x-tap: TAP version 14",
  render: (report) => renderWhole(tapWriter(), report),
  stream: tapWriter,
};
