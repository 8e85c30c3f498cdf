import { formatIssue } from "../config/load-suite";
import type { SuiteConfig } from "../config/types";
import type { TypedJudgePort } from "../engine/ports/judge-port";
import { createProviderSetup, unpricedRefusal, type ProviderSetup } from "../judge/provider-setup";
import { readEnv, type Settings } from "../env/read-env";
import { readSuiteFile } from "./read-suite-file";
import { fileLimits } from "./file-limits";
import { batchOptions } from "./batch-mode";
import { countOutstanding } from "../judge/batch-rounds";
import type { CliIo } from "./cli-io";

// What `review` and `calibrate` share before they grade: the environment, the
// suite (documents read), the --filter, and the judge. Problems come back as
// the exit code 2 after saying what is wrong.

export interface JudgingSetup {
  suite: SuiteConfig;
  settings: Settings;
  filter?: RegExp;
  /**
   * Sends each request to its model's provider; a model whose provider has no key is deferred by
   * planning (`providers.resolve`).
   */
  judge: TypedJudgePort;
  /** Which provider each model resolves to with the keys that are set, and its standard price. */
  providers: ProviderSetup;
  /**
   * `--batch`: the judge sends through Message Batches; runs say so to the engine
   * (`RunOptions.batch`), which counts the budget at batch prices.
   */
  batch: boolean;
  /** The suite file's text, as read (run history stores it). */
  text: string;
}

export interface JudgingOptions {
  config: string;
  filter?: string;
  timeout: number;
  maxCost?: number;
  allowUnpriced?: boolean;
  /** `--batch`: through Message Batches at half price, polled every `pollInterval` seconds. */
  batch?: boolean;
  pollInterval?: number;
}

export interface SuiteSetup {
  suite: SuiteConfig;
  /** The suite file's text, as read (run history stores it). */
  text: string;
  settings: Settings;
  filter?: RegExp;
}

/** The environment, the suite and --filter, for every command that grades. Problems are said and become exit code 2. */
export async function prepareSuite(input: {
  options: { config: string; filter?: string };
  io: CliIo;
  /** JSONL and CSV datasets stay streams, for a caller that plans lazily (`eval --explain`). */
  stream?: boolean;
}): Promise<{ ok: true; value: SuiteSetup } | { ok: false; exitCode: 2 }> {
  const { options, io } = input;
  const fail = (message: string) => {
    io.stderr.write(`error: ${message}\n`);
    return { ok: false as const, exitCode: 2 as const };
  };
  const settings = readEnv(io.env);
  if (!settings.ok) return fail(settings.message);
  let filter: RegExp | undefined;
  if (options.filter !== undefined) {
    try {
      filter = new RegExp(options.filter, "i");
    } catch (error) {
      return fail(`--filter is not a valid regular expression: ${(error as Error).message}`);
    }
  }
  const loaded = await readSuiteFile({
    file: options.config,
    cwd: io.cwd,
    limits: fileLimits(settings.value),
    ...(input.stream ? { stream: true } : {}),
  });
  if (!loaded.ok) {
    for (const issue of loaded.issues) io.stderr.write(`${formatIssue(issue)}\n`);
    return { ok: false, exitCode: 2 };
  }
  for (const warning of loaded.warnings) io.stderr.write(`${formatIssue(warning)}\n`);
  return {
    ok: true,
    value: {
      suite: loaded.value,
      text: loaded.text ?? "",
      settings: settings.value,
      ...(filter ? { filter } : {}),
    },
  };
}

export async function prepareJudging(input: {
  options: JudgingOptions;
  io: CliIo;
}): Promise<{ ok: true; value: JudgingSetup } | { ok: false; exitCode: 2 }> {
  const prepared = await prepareSuite(input);
  if (!prepared.ok) return prepared;
  const { suite, settings, filter, text } = prepared.value;
  const setup = createProviderSetup({ suite, settings, env: input.io.env });
  const { batch, pollInterval = 30 } = input.options;
  const providers: ProviderSetup = setup;
  if (input.options.maxCost !== undefined && !input.options.allowUnpriced) {
    // Every judge model the suite names (the evals --filter keeps): a budget cannot bound what it cannot price.
    const evals = suite.evals.filter((e) => !filter || filter.test(e.name));
    const models = evals.flatMap((e) => [
      ...(e.judge.panel ?? [e.judge.model ?? settings.judgeModel]),
      ...(e.matrix?.models ?? []),
    ]);
    const refusal = unpricedRefusal({ models, priceOf: providers.priceOf });
    if (refusal !== undefined) {
      input.io.stderr.write(`error: ${refusal}\n`);
      return { ok: false, exitCode: 2 };
    }
  }
  const counted = countOutstanding();
  const direct = providers.createJudge({
    timeoutMs: input.options.timeout * 1000,
    ...(batch
      ? {
          batch: batchOptions({
            pollSeconds: pollInterval,
            say: (text) => input.io.stderr.write(text),
            outstanding: counted.outstanding,
          }),
        }
      : {}),
  });
  const judge = batch ? counted.around(direct) : direct;
  return {
    ok: true,
    value: {
      suite,
      settings,
      text,
      ...(filter ? { filter } : {}),
      judge,
      providers,
      batch: Boolean(batch),
    },
  };
}
