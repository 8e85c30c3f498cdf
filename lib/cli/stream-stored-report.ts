import type { EvalResult } from "../engine/results/report";
import type { PriceOf } from "../engine/plan/explain-plan";
import { BaselineTally, type BaselineVerdict } from "../engine/trust/compare-baseline";
import { ReportTotals, type ReportHead } from "../engine/trust/report-totals";
import type { SuiteConfig } from "../config/types";
import { REPORTERS, type ReporterName } from "../report/registry";
import type { CliIo } from "./cli-io";
import { createResultPipeline } from "./result-pipeline";
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
// it is computed only for a format that prints it (pretty). A run held to a baseline gate (`eval
// --baseline`, a CLI `regrade` against its source) is compared as `eval` compares it, its baseline's
// verdicts looked up a window at a time (result-pipeline.ts); a regrade's results carry their
// source's verdict (`previous`), as `regrade` wrote them.

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
 * Streams a stored run's results in `names` to `--output` or stdout. Returns the report's head:
 * the summary of every result written and its baseline gate (its exit code: lib/engine's exitCodeOf).
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
  /** The run's baseline gate (`config.baseline`): its regressions are counted, and exit 1. */
  gate?: { runId: string; maxDrop: number };
  /** A regrade: its source run, whose verdicts each result carries as `previous`. */
  regradeOf?: string;
  /** The verdicts `runId` stored of these result keys (a regrade's source: with its criteria's). */
  lookup: (input: { runId: string; keys: string[] }) => Promise<Map<string, BaselineVerdict>>;
  output?: string;
  io: CliIo;
  color: boolean;
}): Promise<ReportHead> {
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
      reporters: input.names,
    }),
    criteria: input.criteria,
  });
  // Compared with the gate's baseline, else (a regrade with no gate) its source, only for `previous`.
  const against = input.gate?.runId ?? input.regradeOf;
  const tally = against
    ? new BaselineTally({ runId: against, maxDrop: input.gate?.maxDrop ?? 0, every: false })
    : undefined;
  const pipeline = createResultPipeline({
    streams,
    ...(tally && against
      ? {
          baseline: {
            tally,
            lookup: (keys) => input.lookup({ runId: against, keys }),
            previous: input.regradeOf !== undefined,
          },
        }
      : {}),
    questions: false,
  });
  for await (const page of input.pages) {
    for (const result of page) pipeline.push(totals.add(result));
    await pipeline.drained();
    await streams.drained();
  }
  const head: ReportHead = {
    ...totals.head({
      suite: report.suite,
      toolVersion: report.toolVersion,
      startedAt: report.startedAt,
      finishedAt: report.finishedAt,
    }),
    ...(input.gate && tally ? { baseline: tally.comparison() } : {}),
    ...(input.regradeOf !== undefined ? { regradeOf: input.regradeOf } : {}),
    runId: report.runId,
  };
  await streams.finish(head, []);
  const leftOut = totals.agreementLeftOut();
  if (agreement && leftOut !== undefined)
    io.stderr.write(
      `judge agreement is left out: ${leftOut.toLocaleString("en-US")} results were graded by several judges, more than a streamed report measures (${STREAMED_AGREEMENT_MAX.toLocaleString("en-US")}); the run page's Judge agreement reads a sample\n`,
    );
  return head;
}
