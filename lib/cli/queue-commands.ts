import { fileURLToPath } from "node:url";
import { plural } from "../engine/results/format-score";
import { planTotals } from "../engine/plan/plan-suite";
import { wholeReportRefusal } from "./stream-reports";
import type { SuiteConfig } from "../config/types";
import { readServerProviders } from "../judge/server-providers";
import type { ReporterName } from "../report/registry";
import type { Settings } from "../env/read-env";
import { openDatabase, type Database } from "../store/open-database";
import { createRunStore, type RunConfig } from "../store/run-store";
import { renderStoredRun } from "./render-stored-run";
import { liveForRun } from "./live-for-run";
import { providersForRun, serverAgentEndpoints } from "./providers-for-run";
import { readServerAllowList } from "../live/server-allow-list";
import { enqueuePlannedRun } from "../store/enqueue-run";
import { DEFAULT_QUEUE_TIMING, openQueue, type QueueTiming } from "../store/grade-queue";
import { startWorker } from "../store/run-worker";
import { agreementThread } from "../offthread/agreement-off-thread";
import { runSuiteLoader } from "./run-suite-loader";
import type { CliIo } from "./cli-io";

/**
 * A worker's runs' judge agreement, computed on a thread when they finish (bin/suite-worker.mjs,
 * two folders up from this file and from the bundle dist/cli/rubric-studio.mjs alike).
 */
const finishAgreement = agreementThread(
  fileURLToPath(new URL("../../bin/suite-worker.mjs", import.meta.url)),
);

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
  // A format that renders the whole report would read the whole run back: refused before it is queued.
  const refusal =
    !input.detach &&
    wholeReportRefusal(
      input.reporters,
      planTotals({
        suite,
        defaultModel: config.judgeModel,
        ...(input.filter ? { filter: input.filter } : {}),
      }).cells,
    );
  if (refusal) {
    io.stderr.write(`error: ${refusal}\n`);
    return 2;
  }
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
      computeAgreement: finishAgreement,
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
    computeAgreement: finishAgreement,
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
