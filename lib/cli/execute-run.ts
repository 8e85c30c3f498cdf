import { plural } from "../engine/results/format-score";
import type { EvalResult } from "../engine/results/report";
import type { EngineDeps, ReportHead, RunOptions } from "../engine/run-suite";
import { cellSourceOf, LIVE_UNAVAILABLE, streamSuite } from "../engine/stream-suite";
import { ReportTotals } from "../engine/trust/report-totals";
import { splitQuestions } from "../engine/trust/people/needs-person";
import { openReportStreams, runStartOf, wholeReportRefusal } from "./stream-reports";
import { BaselineTally } from "../engine/trust/compare-baseline";
import { createResultPipeline } from "./result-pipeline";
import type { ResumeKeys } from "../store/stored-verdicts";
import { createProviderSetup } from "../judge/provider-setup";
import { batchPriceOf } from "../engine/cost/cost";
import { createRedactor } from "../engine/results/redact-values";
import type { Database } from "../store/open-database";
import { oneLineCause } from "../store/unstored-result";
import { createResultSaver, withRefused, type RefusedResult } from "./store-results";
import { resolveBaseline } from "./resolve-baseline";
import type { RunStore } from "../store/run-store";
import { createProgressBar } from "./progress-bar";
import { createCliLiveRunner } from "./create-cli-live-runner";
import type { CliIo } from "./cli-io";
import { loadHistory, type RunRequest } from "./run-request";
import { createRunJudge } from "./create-run-judge";
import { finishCliRun } from "./finish-cli-run";

export type { RunRequest } from "./run-request";

// One run from the command line, for `eval` and `resume` alike: the judge
// (behind the cache when run history is on), the progress bar, storing each
// result as it is graded, the baseline gate, the reports and the exit code.

export async function executeRun(request: RunRequest): Promise<number> {
  const { suite, settings, config, io } = request;
  const fail = (message: string) => {
    io.stderr.write(`error: ${message}\n`);
    return 2;
  };
  let db: Database | undefined;
  let store: RunStore | undefined;
  let runId: string | undefined;
  try {
    let suiteName: string;
    let resumed: ResumeKeys | undefined;
    // Run history loads Prisma and the database only when it is asked for.
    const history = request.store ? await loadHistory() : undefined;
    if (history) {
      db = await history.openDatabase({
        databaseUrl: settings.databaseUrl,
        dataDir: settings.dataDir,
      });
      store = history.createRunStore(db.prisma);
    }
    if (request.target.kind === "resume") {
      const run = await store!.getRun(request.target.runId);
      if (!run) return fail(`no run with id ${request.target.runId}`);
      runId = run.id;
      suiteName = run.suiteName;
      // Results cut short by Ctrl-C or a cancel are graded now; the rest are kept (their keys only, read in pages).
      resumed = await history!.resumeKeysOf(db!.prisma, run.id);
      const { again } = resumed;
      io.stderr.write(
        `Resuming run ${run.id}: ${resumed.kept.size} of ${plural(run.totalCells, "result")} already stored${again ? `; grading ${again} that ${again === 1 ? "was" : "were"} interrupted or cancelled` : ""}\n`,
      );
    } else {
      suiteName = request.target.suiteName;
    }

    let baseline: { runId: string } | undefined;
    if (request.baseline) {
      if (!store) return fail("--baseline needs run history: pass --store or set DATABASE_URL");
      const found = await resolveBaseline(store, request.baseline.ref, suiteName, runId ?? "");
      if (typeof found === "string") return fail(`--baseline: ${found}`);
      baseline = found;
    }

    const direct = createProviderSetup({ suite, settings, env: io.env });
    // A batched run's budget and projections count batch prices.
    const providers = config.batch ? { ...direct, priceOf: batchPriceOf(direct.priceOf) } : direct;
    const resolveModel = providers.resolve;
    const regradeOptions = request.regrade
      ? {
          agentsReplayed: true,
          storedResponses: request.regrade.responses,
          onlyResultIds: request.regrade.cells,
        }
      : {};
    const planOptions = {
      suite,
      defaultModel: settings.judgeModel,
      resolveModel,
      filter: request.filter,
      // A resumed run's kept results (their keys): their cells are not graded again.
      skipResultIds: resumed?.kept ?? new Set<string>(),
      ...regradeOptions,
    };
    // Evals without a response run as agents against their MCP servers; the servers close with the run.
    const live = request.regrade
      ? undefined
      : createCliLiveRunner({
          settings,
          suiteFile: config.file,
          cwd: io.cwd,
          timeoutSeconds: config.timeoutSeconds,
          toolVersion: config.toolVersion,
          // Each agent model runs on the provider it resolves to, as each judge model does.
          endpointFor: providers.agentEndpoints({ timeoutMs: config.timeoutSeconds * 1000 }),
        });
    // The cells to grade, counted once (a new run's by arithmetic, a resumed run's or a regrade's in one pass of the plan).
    const source = await cellSourceOf({
      ...planOptions,
      ...(live || request.regrade ? {} : { liveUnavailable: LIVE_UNAVAILABLE }),
    });
    const total = (resumed?.kept.size ?? 0) + source.cells;
    // A format that renders the whole report holds every result: refused before any call past its limit.
    const refusal = wholeReportRefusal(request.reporters, total);
    if (refusal) {
      await live?.close();
      return fail(refusal);
    }
    if (store && request.target.kind === "new") {
      const { suiteId, suiteVersionId } = await store.saveSuiteVersion({
        name: suiteName,
        yaml: request.target.yaml,
      });
      const gate = baseline
        ? { baseline: { runId: baseline.runId, maxDrop: request.baseline!.maxDrop } }
        : {};
      runId = await store.createRun({
        suiteId,
        suiteVersionId,
        startedBy: "cli",
        config: { ...config, plannedJudgeCalls: source.judgeCalls, ...gate },
        totalCells: source.cells,
      });
      io.stderr.write(`Storing run ${runId}\n`);
    } else if (store && runId) await store.reopenRun(runId);

    const abort = new AbortController();
    // Each request goes to the provider its model resolves to (a panel or a matrix may mix vendors);
    // with --batch, through Message Batches whose ids are stored with the run, for `resume`.
    const judge = createRunJudge({
      providers,
      config,
      io,
      signal: abort.signal,
      ...(history && db ? { history: { ...history, prisma: db.prisma } } : {}),
      ...(runId ? { runId } : {}),
    });

    const progress = io.stderr.isTTY
      ? createProgressBar({ stream: io.stderr, now: Date.now })
      : undefined;
    const onSigint = () => abort.abort();
    process.once("SIGINT", onSigint);
    // `rubric-studio cancel RUN_ID` (or the dashboard) asks through the database.
    const cancelled = new AbortController();
    const watched = store;
    const cancelWatch =
      watched && runId
        ? setInterval(() => {
            void watched.isCancelRequested(runId!).then(
              (yes) => yes && cancelled.abort(),
              () => {},
            );
          }, 500)
        : undefined;
    const saver =
      store && runId
        ? createResultSaver({
            store,
            runId,
            say: (line) => io.stderr.write(`${progress ? "\n" : ""}${line}\n`),
          })
        : undefined;
    /** The result as the reports show it: with --store, once its write lands (store-results.ts). */
    const save = (result: EvalResult): EvalResult | Promise<EvalResult> => {
      // A batched cell cut short by Ctrl-C is left for `resume`, which waits for its batch instead of paying again.
      if (config.batch && result.skipKind === "interrupted") return result;
      return saver?.save(result) ?? result;
    };
    const runOptions: RunOptions = {
      ...planOptions,
      concurrency: config.concurrency,
      maxCostUsd: config.maxCostUsd,
      toolVersion: config.toolVersion,
      signal: abort.signal,
      cancel: cancelled.signal,
      ...(config.batch ? { batch: true } : {}),
    };
    const engineDeps = (onResult: (result: EvalResult) => void): EngineDeps => ({
      judge,
      ...(live ? { live } : {}),
      ...(request.regrade ? { live: request.regrade.live } : {}),
      now: Date.now,
      // Standard prices: the engine counts a batched run's budget at batch prices itself, and
      // the report says what batching saved.
      priceOf: direct.priceOf,
      redact: createRedactor(providers.secrets),
      onEvent: (event) => {
        progress?.onEvent(event);
        if (event.type === "result") onResult(event.result);
        else if (event.type === "warning")
          io.stderr.write(`${progress ? "\n" : ""}warning: ${event.message}\n`);
      },
    });
    const finished = () => {
      process.off("SIGINT", onSigint);
      clearInterval(cancelWatch);
      progress?.finish();
    };

    // The reports are written as the run goes and no result is kept (issue 20): each result goes to
    // the store and the reports as it is graded; a resumed run's stored results are read in pages
    // and folded into the same figures first; a baseline's verdicts are looked up a window at a time.
    const streams = await openReportStreams({
      names: request.reporters,
      ...(request.output !== undefined ? { output: request.output } : {}),
      io,
      color: request.color,
      // The progress bar's line is cleared before a report line goes to the same terminal.
      beforeStdout: () => progress?.finish(),
    });
    const tally = baseline
      ? new BaselineTally({
          runId: baseline.runId,
          maxDrop: request.baseline!.maxDrop,
          every: streams.collects,
        })
      : undefined;
    const pipeline = createResultPipeline({
      streams,
      ...(tally && history && db
        ? {
            baseline: {
              tally,
              lookup: history.lookupFor({ db: db!, runId: baseline!.runId, request }),
              previous: Boolean(request.regrade),
            },
          }
        : {}),
      questions: Boolean(store),
    });
    const totals = new ReportTotals(direct.priceOf);
    let head: ReportHead;
    try {
      streams.start(
        runStartOf({ suite, config, startedAt: Date.now(), total, reporters: request.reporters }),
      );
      if (resumed && history && db && runId)
        for await (const page of history.createRunExport(db.prisma).resultPages(runId)) {
          for (const result of page)
            if (resumed.kept.has(result.id)) pipeline.push(totals.add(result));
          await pipeline.drained();
        }
      head = await streamSuite(
        { ...runOptions, source, totals },
        {
          ...engineDeps((result) => pipeline.push(save(result))),
          // With --store, a judge call waits while the results queue is full (store-results.ts).
          ...(saver ? { judge: saver.throttle(judge) } : {}),
        },
      );
      // The writes first: a result goes to the reports once its write lands, and when the database
      // is gone settled() throws instead of leaving drained() waiting.
      const refused = (await saver?.settled()) ?? new Map<string, RefusedResult>();
      await pipeline.drained();
      head = withRefused(head, refused);
    } finally {
      finished();
      await live?.close();
    }

    if (tally) head = { ...head, baseline: tally.comparison() };
    return await finishCliRun({
      head,
      collected: pipeline.collected,
      request,
      store,
      runId,
      // What the judges split on across results (a matrix cell pooled with its other judge models).
      questions: () => [...pipeline.questions, ...splitQuestions([...totals.ratings])],
      stopped: abort.signal.aborted
        ? "interrupted"
        : cancelled.signal.aborted
          ? "cancelled"
          : undefined,
      streams,
    });
  } catch (error) {
    // The database failed under the run (it went away, or refused even a result's cause): one line, and the run is failed, not left running.
    if (!store || !runId) throw error;
    await store.setStatus(runId, "failed").catch(() => undefined);
    return fail(`run ${runId} failed: ${oneLineCause(error)}`);
  } finally {
    await db?.close();
  }
}
