import { suiteNameOf } from "./suite-name";
import type { RunConfig } from "../store/run-store";
import { runRepeated } from "../engine/run-repeated";
import { createRedactor } from "../engine/results/redact-values";
import { exitCodeOf } from "../engine/run-suite";
import { formatUsd } from "../engine/results/format-score";
import { parseReporterList } from "../report/registry";
import { prepareJudging } from "./prepare-judging";
import { writeReports } from "./write-reports";
import type { CliIo } from "./cli-io";

// `eval --repeat N`: the run N times through the engine, every result once
// per repeat, and the flip rate per criterion in every report. The judge
// cache is left out on purpose: a repeat measures the judge's own variance,
// which a stored verdict would hide. With --store (or DATABASE_URL) the
// finished run is kept, its results and flip rates with it, for the dashboard.

export interface RepeatOptions {
  config: string;
  repeat: number;
  reporter: string;
  output?: string;
  maxCost?: number;
  concurrency: number;
  timeout: number;
  filter?: string;
  color: boolean;
  store?: boolean;
  baseline?: string;
}

export async function repeatCommand(input: {
  options: RepeatOptions;
  io: CliIo;
  toolVersion: string;
}): Promise<number> {
  const { options, io, toolVersion } = input;
  const reporters = parseReporterList(options.reporter);
  if (!reporters.ok) {
    io.stderr.write(`error: ${reporters.message}\n`);
    return 2;
  }
  if (options.baseline !== undefined) {
    io.stderr.write(
      "error: --repeat measures the judge's variance; it cannot be combined with --baseline\n",
    );
    return 2;
  }
  const setup = await prepareJudging({ options, io });
  if (!setup.ok) return setup.exitCode;
  const { suite, settings, filter, judge, providers, text } = setup.value;
  const store = Boolean(options.store || settings.databaseUrl);
  if (store)
    io.stderr.write(
      "note: --repeat reuses no stored verdicts; the run and its flip rates are stored when it finishes\n",
    );
  io.stderr.write(
    `Grading every eval ${options.repeat} times${options.maxCost !== undefined ? ` (budget ${formatUsd(options.maxCost)} for all repeats)` : ""}\n`,
  );
  const report = await runRepeated(
    {
      suite,
      defaultModel: settings.judgeModel,
      resolveModel: providers.resolve,
      ...(filter ? { filter } : {}),
      concurrency: options.concurrency,
      ...(options.maxCost !== undefined ? { maxCostUsd: options.maxCost } : {}),
      toolVersion,
      repeat: options.repeat,
    },
    {
      judge,
      now: Date.now,
      priceOf: providers.priceOf,
      redact: createRedactor(providers.secrets),
    },
  );
  if (report.results.length === 0) {
    io.stderr.write(`error: --filter ${JSON.stringify(options.filter)} matches no eval\n`);
    return 2;
  }
  let runId: string | undefined;
  if (store) {
    const config: RunConfig = {
      file: options.config,
      cwd: io.cwd,
      toolVersion,
      judgeModel: settings.judgeModel,
      concurrency: options.concurrency,
      timeoutSeconds: options.timeout,
      ...(options.maxCost !== undefined ? { maxCostUsd: options.maxCost } : {}),
      ...(options.filter !== undefined ? { filter: options.filter } : {}),
      noCache: true,
    };
    const { openDatabase } = await import("../store/open-database");
    const { createRepeatStore } = await import("../store/repeat-store");
    const db = await openDatabase({ databaseUrl: settings.databaseUrl, dataDir: settings.dataDir });
    try {
      runId = await createRepeatStore(db.prisma).saveRepeatedRun({
        suiteName: suiteNameOf({ config: options.config, cwd: io.cwd }),
        yaml: text,
        report,
        config,
      });
      io.stderr.write(`Stored run ${runId}\n`);
    } finally {
      await db.close();
    }
  }
  await writeReports({
    names: reporters.value,
    report: { ...report, ...(runId ? { runId } : {}) },
    output: options.output,
    io,
    color: options.color && Boolean(io.stdout.isTTY),
  });
  return exitCodeOf(report);
}
