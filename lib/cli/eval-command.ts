import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { formatIssue } from "../config/load-suite";
import { planSuite } from "../engine/plan-suite";
import { explainPlan, renderExplain } from "../engine/explain-plan";
import { runSuite, exitCodeOf } from "../engine/run-suite";
import { formatUsd } from "../engine/format-score";
import { createAnthropicJudge } from "../judge/anthropic-judge";
import { priceOf } from "../judge/pricing";
import { REPORTERS, parseReporterList, type ReporterName } from "../report/registry";
import { redactReport } from "../report/redact-secrets";
import { readEnv } from "../env/read-env";
import { readSuiteFile } from "./read-suite-file";
import { createProgressBar } from "./progress-bar";
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
}

async function writeReports(input: { names: ReporterName[]; report: Parameters<(typeof REPORTERS)["json"]["render"]>[0]; output?: string; io: CliIo; color: boolean }) {
  const { names, report, output, io, color } = input;
  const files = names.filter((n) => n !== "pretty");
  for (const name of names) {
    const text = REPORTERS[name].render(report, { color: color && name === "pretty" });
    const withNewline = text.endsWith("\n") ? text : `${text}\n`;
    // Pretty is for people: it always goes to the terminal. Machine formats go
    // to --output (a file, or a directory when there are several).
    if (name === "pretty" || output === undefined) {
      io.stdout.write(withNewline);
      continue;
    }
    const target = files.length === 1 ? path.resolve(io.cwd, output) : path.join(path.resolve(io.cwd, output), `report.${REPORTERS[name].extension}`);
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, withNewline);
    io.stderr.write(`wrote ${name} report to ${path.relative(io.cwd, target) || target}\n`);
  }
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
  const { judgeModel, anthropicApiKey, anthropicBaseUrl } = settings.value;

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
    `Grading ${planned.totals.cells} eval${planned.totals.cells === 1 ? "" : "s"}: ${planned.totals.judgeCalls} judge calls, projected ~${formatUsd(planned.totals.costUsd)}${
      options.maxCost !== undefined ? ` (budget ${formatUsd(options.maxCost)})` : ""
    }\n`,
  );

  const progress = io.stderr.isTTY ? createProgressBar({ stream: io.stderr, now: Date.now }) : undefined;
  const judge = createAnthropicJudge({ apiKey: anthropicApiKey ?? "unset", baseURL: anthropicBaseUrl, timeoutMs: options.timeout * 1000 });
  const abort = new AbortController();
  const onSigint = () => abort.abort();
  process.once("SIGINT", onSigint);
  let report;
  try {
    report = await runSuite(
      { suite, defaultModel: judgeModel, judgeUnavailable, filter, concurrency: options.concurrency, maxCostUsd: options.maxCost, toolVersion, signal: abort.signal },
      { judge, now: Date.now, priceOf, onEvent: progress?.onEvent },
    );
  } finally {
    process.off("SIGINT", onSigint);
    progress?.finish();
  }
  await writeReports({ names: reporters.value, report: redactReport(report), output: options.output, io, color: options.color && Boolean(io.stdout.isTTY) });
  return exitCodeOf(report);
}
