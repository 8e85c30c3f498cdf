import path from "node:path";
import { formatIssue } from "../config/load-suite";
import { planSuite } from "../engine/plan-suite";
import { explainPlan, renderExplain } from "../engine/explain-plan";
import { formatUsd } from "../engine/format-score";
import { priceOf } from "../judge/pricing";
import { parseReporterList } from "../report/registry";
import { readEnv } from "../env/read-env";
import { readSuiteFile } from "./read-suite-file";
import { executeRun } from "./execute-run";
import { queuedRun } from "./queue-commands";
import type { RunConfig } from "../store/run-store";
import type { CliIo } from "./main";

export interface EvalOptions {
  config: string;
  explain?: boolean;
  reporter: string;
  output?: string;
  maxCost?: number;
  concurrency: number;
  timeout: number;
  filter?: string;
  color: boolean;
  store?: boolean;
  cache: boolean;
  baseline?: string;
  maxDrop: number;
  queue?: boolean;
  detach?: boolean;
}

export async function evalCommand(input: { options: EvalOptions; io: CliIo; toolVersion: string }): Promise<number> {
  const { options, io, toolVersion } = input;
  const fail = (message: string) => {
    io.stderr.write(`error: ${message}\n`);
    return 2;
  };
  const settings = readEnv(io.env);
  if (!settings.ok) return fail(settings.message);
  const reporters = parseReporterList(options.reporter);
  if (!reporters.ok) return fail(reporters.message);
  let filter: RegExp | undefined;
  if (options.filter !== undefined) {
    try {
      filter = new RegExp(options.filter, "i");
    } catch (error) {
      return fail(`--filter is not a valid regular expression: ${(error as Error).message}`);
    }
  }

  const loaded = await readSuiteFile({ file: options.config, cwd: io.cwd });
  if (!loaded.ok) {
    for (const issue of loaded.issues) io.stderr.write(`${formatIssue(issue)}\n`);
    return 2;
  }
  for (const warning of loaded.warnings) io.stderr.write(`${formatIssue(warning)}\n`);
  const suite = loaded.value;
  const { judgeModel, anthropicApiKey, databaseUrl } = settings.value;

  if (options.explain) {
    const cells = planSuite({ suite, defaultModel: judgeModel, filter });
    io.stdout.write(`${renderExplain(explainPlan(cells, priceOf))}\n`);
    if (!anthropicApiKey) io.stdout.write("No ANTHROPIC_API_KEY is set: a real run would defer every eval.\n");
    return 0;
  }

  const judgeUnavailable = anthropicApiKey ? undefined : "no judge key: set ANTHROPIC_API_KEY to grade for real";
  const planned = explainPlan(planSuite({ suite, defaultModel: judgeModel, judgeUnavailable, filter }), priceOf);
  if (planned.cells.length === 0) return fail(`--filter ${JSON.stringify(options.filter)} matches no eval`);
  io.stderr.write(
    `Grading ${planned.totals.cells} eval${planned.totals.cells === 1 ? "" : "s"}: ${planned.totals.judgeCalls} judge calls${
      planned.totals.agentCalls ? ` (plus up to ${planned.totals.agentCalls} agent model calls)` : ""
    }, projected ~${formatUsd(planned.totals.costUsd)}${
      options.maxCost !== undefined ? ` (budget ${formatUsd(options.maxCost)})` : ""
    }\n`,
  );

  const config: RunConfig = {
    file: options.config,
    cwd: io.cwd,
    toolVersion,
    judgeModel,
    concurrency: options.concurrency,
    timeoutSeconds: options.timeout,
    ...(options.maxCost !== undefined ? { maxCostUsd: options.maxCost } : {}),
    ...(options.filter !== undefined ? { filter: options.filter } : {}),
    ...(!options.cache ? { noCache: true } : {}),
  };
  // The suite is named by its path, as the user wrote it relative to here.
  const suiteName = path.normalize(options.config);
  if (options.detach && !options.queue) return fail("--detach needs --queue");
  if (options.queue) {
    // A budget and a baseline need the whole run in one process; queued runs report them with `report`.
    if (options.maxCost !== undefined) return fail("--max-cost is not supported with --queue yet");
    if (options.baseline !== undefined) return fail("--baseline is not supported with --queue yet");
    return queuedRun({ suite, yaml: loaded.text ?? "", suiteName, settings: settings.value, config, io, reporters: reporters.value, output: options.output, color: options.color && Boolean(io.stdout.isTTY), filter, detach: Boolean(options.detach) });
  }

  return executeRun({
    suite,
    settings: settings.value,
    config,
    io,
    reporters: reporters.value,
    output: options.output,
    color: options.color && Boolean(io.stdout.isTTY),
    filter,
    store: Boolean(options.store || databaseUrl),
    // The suite is named by its path, as the user wrote it relative to here.
    target: { kind: "new", suiteName, yaml: loaded.text ?? "" },
    ...(options.baseline !== undefined ? { baseline: { ref: options.baseline, maxDrop: options.maxDrop } } : {}),
  });
}
