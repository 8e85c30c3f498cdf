import type { EvalResult, ReportSummary } from "../engine/results/report";
import type { PriceOf } from "../engine/plan/explain-plan";
import { ReportTotals } from "../engine/trust/report-totals";
import type { SuiteConfig } from "../config/types";
import { REPORTERS, type ReporterName } from "../report/registry";
import type { CliIo } from "./cli-io";
import { openReportStreams, runStartOf } from "./stream-reports";

// `report RUN_ID` of a big stored run (more than STREAM_ABOVE results) in the formats that are
// written as they go (ndjson, csv, junit, tap, sarif, pretty): read a page of 500 results at a
// time in the suite's order (lib/store/run-export.ts) and handed to the same report streams
// `eval` writes through (stream-reports.ts: the reporters' own writers, redaction included,
// junit's results waiting on disk for its counts), so memory stays flat at a million results,
// and each page waits for the streams to drain (a pipe that is not read holds the command, not a
// growing buffer). The figures are folded by the engine's ReportTotals, as `eval` folds them:
// the summary, judge agreement and self-grading warnings are those of the whole report to the
// bit, and its times are the run's own (its start, not when it was created). Judge agreement
// keeps each multi-judge result's ratings; past STREAMED_AGREEMENT_MAX of them it is left out, and
// it is computed only for a format that prints it (pretty).

export const STREAM_ABOVE = 10_000;
/**
 * The most multi-judge results whose ratings a streamed report keeps for judge agreement (a slim
 * copy of each, under a kilobyte); a run with more is reported without agreement, stderr says.
 */
export const STREAMED_AGREEMENT_MAX = 50_000;

/** The formats a stored run streams in: every reporter written as it goes. */
export const STREAMED_FORMATS = (Object.keys(REPORTERS) as ReporterName[]).filter(
  (name) => REPORTERS[name].stream !== undefined,
);

/**
 * The streaming formats that print judge agreement (pretty-trust.ts); for the others its ratings
 * are not kept nor its figures computed (on tens of thousands of multi-judge results, minutes).
 */
const AGREEMENT_FORMATS: readonly ReporterName[] = ["pretty"];

/** Whether every format asked for streams (then a big run is streamed in them). */
export function streamsAll(names: readonly ReporterName[]): boolean {
  return names.length > 0 && names.every((name) => STREAMED_FORMATS.includes(name));
}

/**
 * Streams a stored run's results in `names` to `--output` or stdout. Returns the summary of every
 * result written (its exit code: lib/engine's exitCodeOf).
 */
export async function streamStoredReport(input: {
  names: ReporterName[];
  pages: AsyncIterable<EvalResult[]>;
  /** Results stored (the start event's total). */
  total: number;
  /** The run's stored criterion names (the csv columns). */
  criteria: string[];
  report: {
    suite: SuiteConfig;
    toolVersion: string;
    /** When the run started (its `started_at`; its creation for a run stored before there was one). */
    startedAt: number;
    finishedAt: number;
    runId: string;
  };
  priceOf: PriceOf;
  output?: string;
  io: CliIo;
  color: boolean;
}): Promise<ReportSummary> {
  const { report, io } = input;
  const streams = await openReportStreams({
    names: input.names,
    ...(input.output !== undefined ? { output: input.output } : {}),
    io,
    color: input.color,
  });
  const agreement = input.names.some((name) => AGREEMENT_FORMATS.includes(name));
  const totals = new ReportTotals(input.priceOf, {
    maxRated: agreement ? STREAMED_AGREEMENT_MAX : 0,
  });
  streams.start({
    ...runStartOf({
      suite: report.suite,
      config: { toolVersion: report.toolVersion },
      startedAt: report.startedAt,
      total: input.total,
    }),
    criteria: input.criteria,
  });
  for await (const page of input.pages) {
    for (const result of page) streams.result(totals.add(result));
    await streams.drained();
  }
  const head = {
    ...totals.head({
      suite: report.suite,
      toolVersion: report.toolVersion,
      startedAt: report.startedAt,
      finishedAt: report.finishedAt,
    }),
    runId: report.runId,
  };
  await streams.finish(head, []);
  const leftOut = totals.agreementLeftOut();
  if (agreement && leftOut !== undefined)
    io.stderr.write(
      `judge agreement is left out: ${leftOut.toLocaleString("en-US")} results were graded by several judges, more than a streamed report measures (${STREAMED_AGREEMENT_MAX.toLocaleString("en-US")}); the run page's Judge agreement reads a sample\n`,
    );
  return head.summary;
}
