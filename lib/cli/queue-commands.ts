import { plural } from "../engine/results/format-score";
import type { SuiteConfig } from "../config/types";
import { loadSuite } from "../config/load-suite";
import { planSuite } from "../engine/plan/plan-suite";
import { buildReport, exitCodeOf } from "../engine/run-suite";
import { providerResolution } from "../judge/provider-resolution";
import { readServerProviders } from "../judge/server-providers";
import { compareToBaseline } from "../engine/trust/compare-baseline";
import { markRegrade } from "../engine/trust/regrade/regrade";
import { createRegradeViews } from "../store/regrade-views";
import type { Report } from "../engine/results/report";
import type { ReporterName } from "../report/registry";
import type { Settings } from "../env/read-env";
import { openDatabase, type Database } from "../store/open-database";
import { createRunStore, type RunConfig, type StoredRun } from "../store/run-store";
import { createRunExport } from "../store/run-export";
import { STREAM_ABOVE, streamsAll, streamStoredReport } from "./stream-stored-report";
import { liveForRun } from "./live-for-run";
import { providersForRun, serverAgentEndpoints } from "./providers-for-run";
import { readServerAllowList } from "../live/server-allow-list";
import { enqueuePlannedRun } from "../store/enqueue-run";
import { DEFAULT_QUEUE_TIMING, openQueue, type QueueTiming } from "../store/grade-queue";
import { startWorker } from "../store/run-worker";
import { runSuiteLoader } from "./run-suite-loader";
import { writeReports } from "./write-reports";
import type { CliIo } from "./cli-io";

// Runs through the job queue: `eval --queue` (split a run into jobs, grade
// them here and on any `worker`, wait), `worker`, `cancel` and `report`.

function timingFrom(settings: Settings): QueueTiming {
  const heartbeat = settings.workerHeartbeatSeconds;
  if (heartbeat === undefined) return DEFAULT_QUEUE_TIMING;
  return {
    heartbeatSeconds: heartbeat,
    superviseIntervalSeconds: Math.max(1, Math.floor(heartbeat / 5)),
  };
}

/**
 * The MCP allow-list and the providers of dashboard runs, which every worker grades by (the same
 * files as the dashboard's).
 */
async function serverPolicies(settings: Settings, io: CliIo) {
  const allowList = await readServerAllowList(settings);
  if (!allowList.ok) {
    io.stderr.write(`error: ${allowList.message}\n`);
    return undefined;
  }
  const providers = await readServerProviders(settings, io.cwd);
  if (!providers.ok) {
    io.stderr.write(`error: ${providers.message}\n`);
    return undefined;
  }
  return { allowList: allowList.value, providers: providers.value.providers };
}

export async function queuedRun(input: {
  suite: SuiteConfig;
  yaml: string;
  suiteName: string;
  settings: Settings;
  config: RunConfig;
  io: CliIo;
  reporters: ReporterName[];
  output?: string;
  color: boolean;
  filter?: RegExp;
  detach: boolean;
}): Promise<number> {
  const { suite, settings, config, io } = input;
  const policies = await serverPolicies(settings, io);
  if (!policies) return 2;
  const db = await openDatabase({ databaseUrl: settings.databaseUrl, dataDir: settings.dataDir });
  const boss = await openQueue({ db, timing: timingFrom(settings) });
  try {
    const { runId, cells, jobs } = await enqueuePlannedRun({
      prisma: db.prisma,
      boss,
      suite,
      suiteName: input.suiteName,
      yaml: input.yaml,
      config,
      startedBy: "cli",
      filter: input.filter,
    });
    io.stderr.write(`Queued run ${runId}: ${plural(cells, "cell")} in ${plural(jobs, "job")}\n`);
    if (input.detach) {
      io.stdout.write(`${runId}\n`);
      return 0;
    }
    const worker = await startWorker({
      db,
      boss,
      providersFor: providersForRun({
        settings,
        env: io.env,
        serverProviders: policies.providers,
        timeoutSeconds: config.timeoutSeconds,
        say: (text) => io.stderr.write(text),
      }),
      concurrency: config.concurrency,
      judgeModel: config.judgeModel,
      toolVersion: config.toolVersion,
      suiteOf: runSuiteLoader(settings),
      liveFor: liveForRun({
        settings,
        allowList: policies.allowList,
        timeoutSeconds: config.timeoutSeconds,
        agentEndpoints: serverAgentEndpoints({
          settings,
          env: io.env,
          serverProviders: policies.providers,
          timeoutSeconds: config.timeoutSeconds,
        }),
      }),
      log: (line) => io.stderr.write(`${io.stderr.isTTY ? "\n" : ""}${line}\n`),
    });
    try {
      await waitForRun({ db, runId, io });
    } finally {
      await worker.stop();
    }
    return await renderStoredRun({
      db,
      runId,
      io,
      reporters: input.reporters,
      output: input.output,
      color: input.color,
    });
  } finally {
    await boss.stop({ graceful: true });
    await db.close();
  }
}

async function waitForRun(input: { db: Database; runId: string; io: CliIo }): Promise<void> {
  let last = -1;
  for (;;) {
    const run = await input.db.prisma.run.findUnique({
      where: { id: input.runId },
      select: { status: true, totalCells: true, _count: { select: { results: true } } },
    });
    if (!run || run.status === "completed" || run.status === "cancelled" || run.status === "failed")
      return;
    if (input.io.stderr.isTTY && run._count.results !== last) {
      last = run._count.results;
      input.io.stderr.write(`\r\x1b[2K${last}/${plural(run.totalCells, "result")}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

async function renderStoredRun(input: {
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
  const order = new Map(
    planSuite({ suite: loaded.value, defaultModel: run.config.judgeModel }).map((cell, i) => [
      cell.id,
      i,
    ]),
  );
  // Prices need no key: each model's provider table (a declared provider's models are unpriced).
  const { priceOf } = providerResolution({
    ...(loaded.value.providers ? { declared: loaded.value.providers } : {}),
    hasKey: () => true,
  });
  // A big run in formats written as they go is streamed as it is read (stream-stored-report.ts).
  const streamed = streamsAll(input.reporters);
  const exporter = createRunExport(input.db.prisma);
  const stored = streamed && !run.config.baseline ? await exporter.resultCount(run.id) : 0;
  if (streamed && stored > STREAM_ABOVE) {
    const summary = await streamStoredReport({
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
      ...(input.output !== undefined ? { output: input.output } : {}),
      io: input.io,
      color: input.color,
    });
    return stillRunning(run, summary.total) ?? exitCodeOf({ summary } as Report);
  }
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
  // A run held to a baseline gate is reported (and exits) against that same baseline.
  const gate = run.config.baseline;
  if (gate) {
    const baseline = await store.getRun(gate.runId);
    if (!baseline) {
      input.io.stderr.write(
        `error: run ${run.id} was gated on baseline run ${gate.runId}, which is no longer stored\n`,
      );
      return 2;
    }
    report = {
      ...report,
      baseline: compareToBaseline({
        report,
        baseline: await store.results(baseline.id),
        baselineRunId: baseline.id,
        maxDrop: gate.maxDrop,
      }),
    };
  }
  // A regrade's results beside its source's (joined in SQL), the flips first, as `regrade` reported them.
  const regrade = await createRegradeViews(input.db.prisma).previousOf(run.id);
  if (regrade)
    report = markRegrade({ report, source: regrade.previous, sourceRunId: regrade.sourceRunId });
  await writeReports({
    names: input.reporters,
    report,
    output: input.output,
    io: input.io,
    color: input.color,
  });
  return stillRunning(run, results.length) ?? exitCodeOf(report);

  /** A run not finished yet: says how far it is, exit 1. */
  function stillRunning(stored: StoredRun, results: number): 1 | undefined {
    if (results >= stored.totalCells) return undefined;
    input.io.stderr.write(
      `run ${stored.id} is ${stored.status}: ${results} of ${plural(stored.totalCells, "result")} so far\n`,
    );
    return 1;
  }
}

export async function workerCommand(input: {
  settings: Settings;
  io: CliIo;
  concurrency: number;
  timeoutSeconds: number;
  toolVersion: string;
}): Promise<number> {
  const { settings, io } = input;
  const policies = await serverPolicies(settings, io);
  if (!policies) return 2;
  const db = await openDatabase({ databaseUrl: settings.databaseUrl, dataDir: settings.dataDir });
  const boss = await openQueue({ db, timing: timingFrom(settings) });
  let graded = 0;
  const worker = await startWorker({
    db,
    boss,
    providersFor: providersForRun({
      settings,
      env: io.env,
      serverProviders: policies.providers,
      timeoutSeconds: input.timeoutSeconds,
      say: (text) => io.stderr.write(text),
    }),
    concurrency: input.concurrency,
    judgeModel: settings.judgeModel,
    toolVersion: input.toolVersion,
    suiteOf: runSuiteLoader(settings),
    liveFor: liveForRun({
      settings,
      allowList: policies.allowList,
      timeoutSeconds: input.timeoutSeconds,
      agentEndpoints: serverAgentEndpoints({
        settings,
        env: io.env,
        serverProviders: policies.providers,
        timeoutSeconds: input.timeoutSeconds,
      }),
    }),
    onResult: (runId, result) => {
      graded++;
      io.stderr.write(`run ${runId}: ${result.status} ${result.name}\n`);
    },
    log: (line) => io.stderr.write(`${line}\n`),
  });
  io.stderr.write(
    `Worker ready (concurrency ${input.concurrency}, ${db.source === "url" ? "DATABASE_URL" : "embedded database"}); Ctrl-C to stop\n`,
  );
  await new Promise<void>((resolve) => {
    process.once("SIGINT", resolve);
    process.once("SIGTERM", resolve);
  });
  io.stderr.write("Stopping: finishing the jobs in hand...\n");
  await worker.stop();
  await boss.stop({ graceful: true });
  await db.close();
  io.stderr.write(`Worker stopped after ${plural(graded, "result")}\n`);
  return 0;
}

export async function cancelCommand(input: {
  runId: string;
  settings: Settings;
  io: CliIo;
}): Promise<number> {
  const db = await openDatabase({
    databaseUrl: input.settings.databaseUrl,
    dataDir: input.settings.dataDir,
  });
  try {
    const requested = await createRunStore(db.prisma).requestCancel(input.runId);
    if (!requested) {
      input.io.stderr.write(`error: no queued or running run with id ${input.runId}\n`);
      return 2;
    }
    input.io.stderr.write(
      `Cancel requested for run ${input.runId}: no new judge calls will be scheduled\n`,
    );
    return 0;
  } finally {
    await db.close();
  }
}

export async function reportCommand(input: {
  runId: string;
  settings: Settings;
  io: CliIo;
  reporters: ReporterName[];
  output?: string;
  color: boolean;
}): Promise<number> {
  const db = await openDatabase({
    databaseUrl: input.settings.databaseUrl,
    dataDir: input.settings.dataDir,
  });
  try {
    // `latest`: the newest stored run, as `--baseline latest` names the newest of a suite.
    const runId =
      input.runId === "latest" ? await createRunStore(db.prisma).newestRunId() : input.runId;
    if (runId === undefined) {
      input.io.stderr.write(
        "error: no stored run yet: `eval --store` (or DATABASE_URL) keeps runs for `report`\n",
      );
      return 2;
    }
    return await renderStoredRun({
      db,
      runId,
      io: input.io,
      reporters: input.reporters,
      output: input.output,
      color: input.color,
    });
  } finally {
    await db.close();
  }
}
