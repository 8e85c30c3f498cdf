import { once } from "node:events";
import { createWriteStream } from "node:fs";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { shownTarget } from "./write-reports";
import { addTokenUsage } from "../engine/ports/judge-port";
import { addSaving } from "../engine/cost/savings";
import type { EvalResult, Report, ReportSummary } from "../engine/results/report";
import type { Savings } from "../engine/results/savings-types";
import { buildReport } from "../engine/run-suite";
import type { PriceOf } from "../engine/plan/explain-plan";
import type { SuiteConfig } from "../config/types";
import { csvHeader, csvResultLine } from "../report/csv-rows";
import { stableObject } from "../report/stable-json";
import type { CliIo } from "./cli-io";

// `report RUN_ID` of a big stored run (more than STREAM_ABOVE results) in ndjson or csv: written
// as it is read, a page of 500 results at a time in the suite's order (lib/store/run-export.ts),
// so memory stays flat at a million results, and each write waits for the reader (a pipe that is
// not read holds the command, not a growing buffer). Each page goes through the engine's
// buildReport (the results' savings, the page's figures) and the pages' figures are added up for
// the summary; the figures that need every result at once (judge agreement, self-grading
// warnings) are left out of a streamed summary, which says so on stderr.
// The lines are the reporters' own: csv-rows.ts's, and ndjson's (the `line` below is
// lib/report/ndjson.ts's, which exports none).

export const STREAM_ABOVE = 10_000;
export const STREAMED_FORMATS = ["ndjson", "csv"] as const;
export type StreamedFormat = (typeof STREAMED_FORMATS)[number];

/** The one streamed format asked for, if that is all that was asked for. */
export function streamedFormatOf(names: readonly string[]): StreamedFormat | undefined {
  const [only] = names;
  return names.length === 1 && (STREAMED_FORMATS as readonly string[]).includes(only!)
    ? (only as StreamedFormat)
    : undefined;
}

const LEADING = ["type", "index", "id", "name", "status"];

function ndjsonLine(event: Record<string, unknown>): string {
  return `${JSON.stringify(stableObject(event, LEADING)).replace(/[\u2028\u2029]/g, (c) =>
    c === "\u2028" ? "\\u2028" : "\\u2029",
  )}\n`;
}

function addSavings(a: Savings, b: Savings): Savings {
  const batch =
    a.batch || b.batch
      ? {
          calls: (a.batch?.calls ?? 0) + (b.batch?.calls ?? 0),
          saved: addSaving(
            a.batch?.saved ?? { usd: 0, unpriced: false },
            b.batch?.saved ?? { usd: 0, unpriced: false },
          ),
        }
      : undefined;
  return {
    promptCache: {
      readTokens: a.promptCache.readTokens + b.promptCache.readTokens,
      writeTokens: a.promptCache.writeTokens + b.promptCache.writeTokens,
      reads: addSaving(a.promptCache.reads, b.promptCache.reads),
      writes: addSaving(a.promptCache.writes, b.promptCache.writes),
      net: addSaving(a.promptCache.net, b.promptCache.net),
    },
    judgeCache: {
      calls: a.judgeCache.calls + b.judgeCache.calls,
      saved: addSaving(a.judgeCache.saved, b.judgeCache.saved),
    },
    ...(batch ? { batch } : {}),
    total: addSaving(a.total, b.total),
  };
}

/** Two pages' summaries as one. */
export function addSummaries(a: ReportSummary, b: ReportSummary): ReportSummary {
  const skippedBy = { ...a.skippedBy };
  for (const [kind, n] of Object.entries(b.skippedBy ?? {}))
    skippedBy[kind as keyof typeof skippedBy] =
      (skippedBy[kind as keyof typeof skippedBy] ?? 0) + n;
  const reused = (a.reused?.calls ?? 0) + (b.reused?.calls ?? 0);
  return {
    total: a.total + b.total,
    passed: a.passed + b.passed,
    failed: a.failed + b.failed,
    deferred: a.deferred + b.deferred,
    judgeErrors: a.judgeErrors + b.judgeErrors,
    skipped: a.skipped + b.skipped,
    ...(a.skipped + b.skipped > 0 ? { skippedBy } : {}),
    vacuous: a.vacuous + b.vacuous,
    judgeCalls: a.judgeCalls + b.judgeCalls,
    costUsd: a.costUsd + b.costUsd,
    usage: addTokenUsage(a.usage, b.usage),
    ...(reused > 0 ? { reused: { calls: reused } } : {}),
    savings: addSavings(a.savings, b.savings),
  };
}

/** The report's fixed parts: what `buildReport` makes of no results. */
type Head = Omit<Report, "results" | "summary">;

/** The one-format writer: what goes before the results, each page's, and the end. */
function formatWriter(input: {
  format: StreamedFormat;
  head: Head;
  total: number;
  criteria: string[];
}) {
  const { head } = input;
  let index = 0;
  if (input.format === "csv")
    return {
      start: () => csvHeader(input.criteria),
      page: (results: readonly EvalResult[]) =>
        results.map((r) => csvResultLine(r, input.criteria)).join(""),
      end: () => "",
    };
  return {
    start: () =>
      ndjsonLine({
        type: "start",
        schemaVersion: head.schemaVersion,
        tool: head.tool,
        suite: head.suite,
        startedAt: head.startedAt,
        total: input.total,
      }),
    page: (results: readonly EvalResult[]) =>
      results.map((r) => ndjsonLine({ type: "result", index: ++index, ...r })).join(""),
    end: (summary: ReportSummary) =>
      ndjsonLine({
        type: "summary",
        finishedAt: head.finishedAt,
        durationMs: head.durationMs,
        ...summary,
      }),
  };
}

/** Writes `text`, and waits when the stream's buffer is full until the reader has taken it. */
async function writeWaiting(stream: NodeJS.WritableStream, text: string): Promise<void> {
  if (text && !stream.write(text)) await once(stream, "drain");
}

/**
 * Streams a stored run's results in one format to `--output` (a file) or stdout. Returns the
 * summary of every result written (its exit code: lib/engine's exitCodeOf).
 */
export async function streamStoredReport(input: {
  format: StreamedFormat;
  pages: AsyncIterable<EvalResult[]>;
  /** Results stored (the start event's total). */
  total: number;
  criteria: string[];
  report: {
    suite: SuiteConfig;
    toolVersion: string;
    startedAt: number;
    finishedAt: number;
    runId: string;
  };
  priceOf: PriceOf;
  output?: string;
  io: CliIo;
}): Promise<ReportSummary> {
  const { report, priceOf, io } = input;
  const build = (results: EvalResult[]) =>
    buildReport({
      results,
      suite: report.suite,
      toolVersion: report.toolVersion,
      startedAt: report.startedAt,
      finishedAt: report.finishedAt,
      priceOf,
    });
  const { results: _none, summary: empty, ...head } = build([]);
  const writer = formatWriter({
    format: input.format,
    head: { ...head, runId: report.runId } as Head,
    total: input.total,
    criteria: input.criteria,
  });
  const target = input.output ? path.resolve(io.cwd, input.output) : undefined;
  if (target) await mkdir(path.dirname(target), { recursive: true });
  const out: NodeJS.WritableStream = target ? createWriteStream(target) : io.stdout;
  let summary = empty;
  try {
    await writeWaiting(out, writer.start());
    for await (const page of input.pages) {
      const built = build(page);
      summary = addSummaries(summary, built.summary);
      await writeWaiting(out, writer.page(built.results));
    }
    await writeWaiting(out, writer.end(summary));
  } finally {
    if (target) await new Promise<void>((resolve) => (out as NodeJS.WritableStream).end(resolve));
  }
  if (target)
    io.stderr.write(
      `wrote ${input.format} report to ${shownTarget({ target, output: input.output, cwd: io.cwd })}\n`,
    );
  io.stderr.write(
    `streamed ${input.total.toLocaleString("en-US")} results: judge agreement and self-grading warnings are left out of a streamed report (above ${STREAM_ABOVE.toLocaleString("en-US")} results)\n`,
  );
  return summary;
}
