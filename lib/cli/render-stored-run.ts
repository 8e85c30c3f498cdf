import { plural } from "../engine/results/format-score";
import { loadSuite } from "../config/load-suite";
import { planSuite } from "../engine/plan/plan-suite";
import { buildReport, exitCodeOf } from "../engine/run-suite";
import { providerResolution } from "../judge/provider-resolution";
import { BaselineTally } from "../engine/trust/compare-baseline";
import { markRegrade } from "../engine/trust/regrade/regrade";
import { createRegradeViews } from "../store/regrade-views";
import type { Report } from "../engine/results/report";
import type { ReporterName } from "../report/registry";
import type { Database } from "../store/open-database";
import { createRunStore, type StoredRun } from "../store/run-store";
import { createRunExport } from "../store/run-export";
import { verdictsOf } from "../store/stored-verdicts";
import { BASELINE_WINDOW } from "./result-pipeline";
import { STREAM_ABOVE, streamsAll, streamStoredReport } from "./stream-stored-report";
import { writeReports } from "./write-reports";
import { sayFlips } from "./say-flips";
import { wholeReportRefusal } from "./stream-reports";
import type { CliIo } from "./cli-io";

// A stored run's reports, for `report RUN_ID` and `eval --queue` (queue-commands.ts): streamed
// from the store in the formats written as they go (stream-stored-report.ts), else read and
// rendered whole (a small run, a format that renders the whole report, a baseline gate).

/**
 * Writes a stored run's reports (`report RUN_ID`, and `eval --queue` once its run ends): a big run
 * in formats written as they go is streamed a page at a time, never loaded or planned whole.
 */
export async function renderStoredRun(input: {
  db: Database;
  runId: string;
  io: CliIo;
  reporters: ReporterName[];
  output?: string;
  color: boolean;
}): Promise<number> {
  const store = createRunStore(input.db.prisma);
  const run = await store.getRun(input.runId);
  if (!run) {
    input.io.stderr.write(`error: no run with id ${input.runId}\n`);
    return 2;
  }
  const loaded = loadSuite({ text: run.yaml, file: run.config.file });
  if (!loaded.ok) {
    input.io.stderr.write(`error: the stored suite of run ${run.id} no longer loads\n`);
    return 2;
  }
  // Prices need no key: each model's provider table (a declared provider's models are unpriced).
  const { priceOf } = providerResolution({
    ...(loaded.value.providers ? { declared: loaded.value.providers } : {}),
    hasKey: () => true,
  });
  // A big run in formats written as they go is streamed as it is read (stream-stored-report.ts).
  const streamed = streamsAll(input.reporters);
  const exporter = createRunExport(input.db.prisma);
  const stored = await exporter.resultCount(run.id);
  // A format that renders the whole report reads the whole run: past its limit, refused (as `eval` refuses it).
  const refusal = wholeReportRefusal(input.reporters, stored);
  if (refusal) {
    input.io.stderr.write(`error: ${refusal}\n`);
    return 2;
  }
  const gate = run.config.baseline;
  if (gate && !(await store.getRun(gate.runId))) {
    input.io.stderr.write(
      `error: run ${run.id} was gated on baseline run ${gate.runId}, which is no longer stored\n`,
    );
    return 2;
  }
  const views = createRegradeViews(input.db.prisma);
  const source = await views.sourceOf(run.id);
  if (streamed && stored > STREAM_ABOVE) {
    // A regrade or a gated run too: its baseline's verdicts are looked up a window at a time.
    const head = await streamStoredReport({
      names: input.reporters,
      pages: exporter.resultPages(run.id),
      total: stored,
      criteria: await exporter.criterionNames(run.id),
      report: {
        suite: loaded.value,
        toolVersion: run.config.toolVersion,
        // The run's own times, as the report of a small run and `eval --store` say them.
        startedAt: (run.startedAt ?? run.createdAt).getTime(),
        finishedAt: (run.finishedAt ?? new Date()).getTime(),
        runId: run.id,
      },
      priceOf,
      ...(gate ? { gate } : {}),
      ...(source ? { regradeOf: source.id } : {}),
      lookup: ({ runId, keys }) =>
        verdictsOf(input.db.prisma, { runId, keys, criteria: source !== undefined }),
      ...(input.output !== undefined ? { output: input.output } : {}),
      io: input.io,
      color: input.color,
    });
    if (source)
      await tellFlips({ sourceRunId: source.id, baseline: head.baseline, streamed: true });
    return stillRunning(run, head.summary.total) ?? exitCodeOf(head);
  }
  // A run rendered whole (few results, or a format that renders it whole) in the suite's order.
  const order = new Map(
    planSuite({ suite: loaded.value, defaultModel: run.config.judgeModel }).map((cell, i) => [
      cell.id,
      i,
    ]),
  );
  const results = (await store.results(run.id)).sort(
    (a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0),
  );
  let report: Report = {
    ...buildReport({
      results,
      suite: loaded.value,
      toolVersion: run.config.toolVersion,
      startedAt: (run.startedAt ?? run.createdAt).getTime(),
      finishedAt: (run.finishedAt ?? new Date()).getTime(),
      priceOf,
    }),
    runId: run.id,
  };
  // A run held to a baseline gate is reported (and exits) against that same baseline, whose
  // verdicts are looked up a window at a time (the baseline is not read whole).
  if (gate) {
    const tally = new BaselineTally({ runId: gate.runId, maxDrop: gate.maxDrop, every: true });
    for (let i = 0; i < results.length; i += BASELINE_WINDOW) {
      const window = results.slice(i, i + BASELINE_WINDOW);
      const before = await verdictsOf(input.db.prisma, {
        runId: gate.runId,
        keys: window.map((r) => r.id),
      });
      for (const result of window) tally.add(result, before.get(result.id));
    }
    report = { ...report, baseline: tally.comparison() };
  }
  // A regrade's results beside its source's (joined in SQL), the flips first, as `regrade` reported them.
  const regrade = source ? await views.previousOf(run.id) : undefined;
  if (regrade)
    report = markRegrade({
      report,
      source: regrade.previous,
      sourceRunId: regrade.sourceRunId,
      order: await views.flipOrder(run.id),
    });
  await writeReports({
    names: input.reporters,
    report,
    output: input.output,
    io: input.io,
    color: input.color,
  });
  if (regrade)
    await tellFlips({
      sourceRunId: regrade.sourceRunId,
      baseline: report.baseline,
      streamed: false,
    });
  return stillRunning(run, results.length) ?? exitCodeOf(report);

  /** The tally `regrade` ended with, from the same queries (the flips page's, counted in SQL). */
  function tellFlips(tell: {
    sourceRunId: string;
    baseline: Report["baseline"];
    streamed: boolean;
  }): Promise<void> {
    return sayFlips({ prisma: input.db.prisma, runId: run!.id, io: input.io, ...tell });
  }

  /** A run not finished yet: says how far it is, exit 1. */
  function stillRunning(stored: StoredRun, results: number): 1 | undefined {
    if (results >= stored.totalCells) return undefined;
    input.io.stderr.write(
      `run ${stored.id} is ${stored.status}: ${results} of ${plural(stored.totalCells, "result")} so far\n`,
    );
    return 1;
  }
}
