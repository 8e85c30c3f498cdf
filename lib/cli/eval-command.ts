import { goesThroughBatches } from "../engine/plan/resolve-provider";
import { suiteNameOf } from "./suite-name";
import { planCells, planTotals } from "../engine/plan/plan-suite";
import { explainCells } from "../engine/plan/explain-plan";
import { renderExplain } from "../engine/plan/render-explain";
import { formatUsd, plural } from "../engine/results/format-score";
import { createProviderSetup, unpricedRefusal } from "../judge/provider-setup";
import { parseReporterList } from "../report/registry";
import { executeRun } from "./execute-run";
import { prepareSuite } from "./prepare-judging";
import { batchSavingLine } from "./batch-mode";
import { batchPriceOf } from "../engine/cost/cost";
import type { RunConfig } from "../store/run-store";
import type { CliIo } from "./cli-io";

/** Cells `eval --explain` lists one by one; a larger plan lists these and sums the rest. */
const EXPLAIN_LISTED_CELLS = 1_000;

export interface EvalOptions {
  config: string;
  explain?: boolean;
  reporter: string;
  output?: string;
  maxCost?: number;
  allowUnpriced?: boolean;
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
  batch?: boolean;
  pollInterval?: number;
}

export async function evalCommand(input: {
  options: EvalOptions;
  io: CliIo;
  toolVersion: string;
}): Promise<number> {
  const { options, io, toolVersion } = input;
  const fail = (message: string) => {
    io.stderr.write(`error: ${message}\n`);
    return 2;
  };
  const reporters = parseReporterList(options.reporter);
  if (!reporters.ok) return fail(reporters.message);
  // Planned lazily: JSONL and CSV datasets stay streams, read as cells are priced, queued and
  // graded (a queued run's workers read the files again: lib/cli/run-suite-loader.ts).
  const prepared = await prepareSuite({ options, io, stream: true });
  if (!prepared.ok) return prepared.exitCode;
  const { suite, filter, text, settings } = prepared.value;
  const { judgeModel, databaseUrl } = settings;
  const direct = createProviderSetup({ suite, settings, env: io.env });
  // A batched run's budget and projections count batch prices.
  const providers = options.batch ? { ...direct, priceOf: batchPriceOf(direct.priceOf) } : direct;
  const resolveModel = providers.resolve;
  // The judge cache lives in the run store: a run that keeps no history pays again on a rerun.
  const stored = Boolean(options.store || databaseUrl || options.queue);
  const explainOptions = {
    cacheMinimumOf: providers.cacheMinimumOf,
    concurrency: options.concurrency,
    judgeCache: !options.cache ? false : stored ? true : ("no store" as const),
    batchable: (model: string) => goesThroughBatches(providers.resolve(model)),
  };

  if (options.explain) {
    // Planned as if every key were set, so that the plan shows what a real run would do; the
    // missing keys are said after it.
    const asIf = {
      suite,
      defaultModel: judgeModel,
      ...(filter ? { filter } : {}),
      resolveModel: (model: string) => ({ provider: resolveModel(model).provider }),
    };
    // What the keys that are set change (a judge's or an agent's provider without its key): the
    // real plan walked beside the as-if one, cell for cell.
    const missing = new Map<string, { cells: number; calls: number }>();
    const real = planCells({ ...asIf, resolveModel })[Symbol.asyncIterator]();
    async function* alongside() {
      for await (const cell of planCells(asIf)) {
        const { value } = await real.next();
        if (value?.deferReason !== undefined && cell.deferReason === undefined) {
          const counted = missing.get(value.deferReason) ?? { cells: 0, calls: 0 };
          counted.cells += 1;
          counted.calls += cell.judgeCalls;
          missing.set(value.deferReason, counted);
        }
        yield cell;
      }
    }
    // The plan at standard prices, which shows what batches would cost beside the rest; with --batch, what they save.
    const plan = await explainCells({
      cells: alongside(),
      priceOf: direct.priceOf,
      options: explainOptions,
      plannedCalls: planTotals(asIf).judgeCalls,
      listCells: EXPLAIN_LISTED_CELLS,
    });
    await real.return(undefined);
    io.stdout.write(`${renderExplain(plan)}\n`);
    if (options.batch) io.stdout.write(`${batchSavingLine(plan.totals.costUsd)}\n`);
    // The plan above counts them as if graded; said with their calls, so that the run's own
    // "Grading …: N judge calls" line, which leaves them out, is not a second answer.
    let deferredCalls = 0;
    for (const [reason, counted] of missing) {
      deferredCalls += counted.calls;
      io.stdout.write(
        `A real run would defer ${plural(counted.cells, "cell")} (${plural(counted.calls, "judge call")} of the plan above): ${reason}.\n`,
      );
    }
    if (missing.size > 0)
      io.stdout.write(
        `So a real run with these keys makes ${plural(plan.totals.judgeCalls - deferredCalls, "judge call")}, as its Grading line will say.\n`,
      );
    return 0;
  }

  // The projection line, priced cell by cell as the plan streams past (nothing held).
  const planning = { suite, defaultModel: judgeModel, resolveModel, ...(filter ? { filter } : {}) };
  const planned = await explainCells({
    cells: planCells(planning),
    priceOf: providers.priceOf,
    options: explainOptions,
    plannedCalls: planTotals(planning).judgeCalls,
    listCells: 0,
  });
  if (planned.totals.cells === 0)
    return fail(`--filter ${JSON.stringify(options.filter)} matches no eval`);
  // A budget cannot bound what it cannot price (a local model): say so before spending anything.
  const refusal =
    options.maxCost !== undefined && !options.allowUnpriced
      ? unpricedRefusal({ models: planned.totals.unpricedModels, priceOf: providers.priceOf })
      : undefined;
  if (refusal !== undefined) return fail(refusal);
  io.stderr.write(
    `Grading ${plural(planned.totals.evals, "eval")} (${plural(planned.totals.cells, "cell")}): ${plural(planned.totals.judgeCalls, "judge call")}${
      planned.totals.generationCalls
        ? ` and ${plural(planned.totals.generationCalls, "generation call")}`
        : ""
    }${
      planned.totals.agentCalls > planned.totals.generationCalls
        ? ` (plus up to ${planned.totals.agentCalls - planned.totals.generationCalls} agent model calls)`
        : ""
    }, projected ~${projectedText(planned.totals)}${
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
    ...(options.batch ? { batch: { pollSeconds: options.pollInterval ?? 30 } } : {}),
  };
  // One file is one suite whichever folder it is run from (suite-name.ts).
  const suiteName = suiteNameOf({ config: options.config, cwd: io.cwd });
  if (options.detach && !options.queue) return fail("--detach needs --queue");
  if (options.queue) {
    // A budget and a baseline need the whole run in one process; queued runs report them with `report`.
    if (options.maxCost !== undefined) return fail("--max-cost is not supported with --queue yet");
    if (options.baseline !== undefined) return fail("--baseline is not supported with --queue yet");
    const { queuedRun } = await import("./queue-commands");
    return queuedRun({
      suite,
      yaml: text,
      suiteName,
      settings,
      config,
      io,
      reporters: reporters.value,
      output: options.output,
      color: options.color && Boolean(io.stdout.isTTY),
      filter,
      detach: Boolean(options.detach),
    });
  }

  return executeRun({
    suite,
    settings,
    config,
    io,
    reporters: reporters.value,
    output: options.output,
    color: options.color && Boolean(io.stdout.isTTY),
    filter,
    store: Boolean(options.store || databaseUrl),
    target: { kind: "new", suiteName, yaml: text },
    ...(options.baseline !== undefined
      ? { baseline: { ref: options.baseline, maxDrop: options.maxDrop } }
      : {}),
  });
}

/** The run's projection: with generated candidates, the whole run's split as the editor splits it. */
function projectedText(t: {
  costUsd: number;
  generationCalls: number;
  generationUsd: number | null;
}) {
  return t.generationCalls && t.generationUsd !== null
    ? `${formatUsd(t.costUsd + t.generationUsd)} (judges ~${formatUsd(t.costUsd)} + generation ~${formatUsd(t.generationUsd)})`
    : formatUsd(t.costUsd);
}
