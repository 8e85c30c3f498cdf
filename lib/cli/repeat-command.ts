import { runRepeated } from "../engine/repeat/run-repeated";
import { exitCodeOf } from "../engine/run-suite";
import { formatUsd } from "../engine/format-score";
import { priceOf } from "../judge/pricing";
import { parseReporterList } from "../report/registry";
import { prepareJudging } from "./prepare-judging";
import { writeReports } from "./write-reports";
import type { CliIo } from "./main";

// `eval --repeat N`: the run N times through the engine, every result once
// per repeat, and the flip rate per criterion in every report. Run history
// and the judge cache are left out on purpose: a repeat measures the judge's
// own variance, which a stored verdict would hide.

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

export async function repeatCommand(input: { options: RepeatOptions; io: CliIo; toolVersion: string }): Promise<number> {
  const { options, io, toolVersion } = input;
  const reporters = parseReporterList(options.reporter);
  if (!reporters.ok) {
    io.stderr.write(`error: ${reporters.message}\n`);
    return 2;
  }
  if (options.baseline !== undefined) {
    io.stderr.write("error: --repeat measures the judge's variance; it cannot be combined with --baseline\n");
    return 2;
  }
  const setup = await prepareJudging({ options, io });
  if (!setup.ok) return setup.exitCode;
  const { suite, settings, filter, judge } = setup.value;
  if (options.store) io.stderr.write("note: --repeat keeps no run history and reuses no stored verdicts\n");
  io.stderr.write(`Grading every eval ${options.repeat} times${options.maxCost !== undefined ? ` (budget ${formatUsd(options.maxCost)} for all repeats)` : ""}\n`);
  const report = await runRepeated(
    {
      suite,
      defaultModel: settings.judgeModel,
      ...(judge ? {} : { judgeUnavailable: "no judge key: set ANTHROPIC_API_KEY to grade for real" }),
      ...(filter ? { filter } : {}),
      concurrency: options.concurrency,
      ...(options.maxCost !== undefined ? { maxCostUsd: options.maxCost } : {}),
      toolVersion,
      repeat: options.repeat,
    },
    { judge: judge ?? { grade: () => Promise.reject(new Error("no judge")) }, now: Date.now, priceOf },
  );
  if (report.results.length === 0) {
    io.stderr.write(`error: --filter ${JSON.stringify(options.filter)} matches no eval\n`);
    return 2;
  }
  await writeReports({ names: reporters.value, report, output: options.output, io, color: options.color && Boolean(io.stdout.isTTY) });
  return exitCodeOf(report);
}
