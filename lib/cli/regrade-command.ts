import path from "node:path";
import { formatIssue, loadSuite } from "../config/load-suite";
import { modelNameProblem } from "../config/check-providers";
import type { LoadResult } from "../config/types";
import { withJudge } from "../engine/trust/regrade/with-judge";
import { fileLimits } from "./file-limits";
import { openDatabase, type Database } from "../store/open-database";
import { matchRegradeSource, namedList } from "../store/regrade-source";
import { storedCandidates } from "../store/regrade-replay";
import { createRegradeViews } from "../store/regrade-views";
import { createRunStore, type StoredRun } from "../store/run-store";
import type { CliIo } from "./cli-io";
import { executeRun } from "./execute-run";
import { sayFlips } from "./say-flips";
import { STREAMED_FORMATS } from "./stream-stored-report";
import { storedRunSetup, type StoredRunSetup } from "./stored-run-setup";
import { readSuiteAttachments, readSuiteFile } from "./read-suite-file";

// `regrade RUN_ID|latest`: grades a stored run's candidates (fixed responses,
// generated replies and live transcripts) again with the rubrics and judges of
// a suite file (default: the run's own suite text), with no generation or
// agent call. Results are matched to the source by eval name and cell; the new
// run is stored, linked to its source, and exits as `eval --baseline SOURCE`.

export interface RegradeOptions {
  config?: string;
  judge?: string;
  reporter: string;
  output?: string;
  color: boolean;
  maxDrop: number;
}

/** The stored run `ref` names (an id, or `latest`), or why there is none. */
async function sourceRun(input: { db: Database; ref: string }): Promise<StoredRun | string> {
  const store = createRunStore(input.db.prisma);
  // `latest` is what `report latest` names, whatever file --config reads (an edited copy, say).
  const id = input.ref !== "latest" ? input.ref : await store.newestRunId();
  const run = id === undefined ? undefined : await store.getRun(id);
  if (run) return run;
  return input.ref === "latest" ? "no stored run to regrade yet" : `no run with id ${input.ref}`;
}

export async function regradeCommand(input: {
  ref: string;
  options: RegradeOptions;
  io: CliIo;
}): Promise<number> {
  const { options, io } = input;
  const setup = storedRunSetup({ io, reporter: options.reporter });
  if (!setup.ok) return setup.exitCode;
  const { settings } = setup;
  // Open for the whole run: the source's candidates are read a cell at a time as they are graded.
  const db = await openDatabase({ databaseUrl: settings.databaseUrl, dataDir: settings.dataDir });
  try {
    const run = await sourceRun({ db, ref: input.ref });
    if (typeof run === "string") return setup.fail(run);
    return await regradeRun({ ...input, setup, db, run });
  } finally {
    await db.close();
  }
}

async function regradeRun(input: {
  options: RegradeOptions;
  io: CliIo;
  setup: StoredRunSetup;
  db: Database;
  run: StoredRun;
}): Promise<number> {
  const { options, io, db, run } = input;
  const { fail, settings, reporters } = input.setup;
  // The suite to grade with: the file given, else the run's own text (read again with its files from where it ran).
  let loaded: LoadResult & { text?: string };
  const limits = fileLimits(settings);
  if (options.config !== undefined) {
    // Its JSONL and CSV datasets stay streams: the plan is walked lazily, never held.
    loaded = await readSuiteFile({ file: options.config, cwd: io.cwd, limits, stream: true });
  } else {
    const own = loadSuite({ text: run.yaml, file: run.config.file, limits });
    loaded = own.ok
      ? await readSuiteAttachments({
          suite: own.value,
          suitePath: path.resolve(run.config.cwd ?? io.cwd, run.config.file),
          limits,
          stream: true,
        }).then((read) => (read.ok ? { ...own, value: read.value } : read))
      : own;
  }
  if (!loaded.ok) {
    for (const issue of loaded.issues) io.stderr.write(`${formatIssue(issue)}\n`);
    return 2;
  }
  // A judge whose provider the suite does not know would defer every cell and pass: a usage error.
  const judgeProblem =
    options.judge !== undefined
      ? modelNameProblem(options.judge, Object.keys(loaded.value.providers ?? {}))
      : undefined;
  if (judgeProblem !== undefined) return fail(`--judge: ${judgeProblem}`);
  const suite = options.judge !== undefined ? withJudge(loaded.value, options.judge) : loaded.value;
  const judgeModel = options.judge ?? settings.judgeModel;

  // Matched by eval name and cell (the result ids both runs share), in one walk of the plan and
  // one of the source's keys: the source is never read whole (regrade-source.ts).
  const match = await matchRegradeSource({
    prisma: db.prisma,
    sourceRunId: run.id,
    plan: { suite, defaultModel: judgeModel, agentsReplayed: true },
  });
  if (match.gone.count)
    io.stderr.write(`Not in the suite any more (not regraded): ${namedList(match.gone)}\n`);
  if (match.added.count)
    io.stderr.write(
      `New in the suite, with no stored candidate (grade them with rubric-studio eval): ${namedList(match.added)}\n`,
    );
  // A result that ended before it had a candidate (an agent or generation call that failed, a deferral) has nothing to grade again.
  if (match.empty.count)
    io.stderr.write(`No stored candidate (not regraded): ${namedList(match.empty)}\n`);
  io.stderr.write(
    `Regrading ${match.cells.size} of ${match.stored} results of run ${run.id}: no generation or agent call\n`,
  );

  return executeRun({
    suite,
    settings: { ...settings, judgeModel },
    config: {
      ...run.config,
      judgeModel,
      ...(options.config !== undefined ? { file: options.config, cwd: io.cwd } : {}),
      regradeOf: run.id,
    },
    io,
    reporters,
    output: options.output,
    color: options.color && Boolean(io.stdout.isTTY),
    store: true,
    target: {
      kind: "new",
      suiteName: run.suiteName,
      yaml: options.config !== undefined ? loaded.text! : run.yaml,
    },
    baseline: { ref: run.id, maxDrop: options.maxDrop },
    regrade: {
      sourceRunId: run.id,
      live: storedCandidates({ prisma: db.prisma, sourceRunId: run.id }),
      cells: match.cells,
      responses: match.responses,
      flipOrder: (runId) => createRegradeViews(db.prisma).flipOrder(runId),
      // After the reports; those written as the run went (pretty, ndjson...) are in the suite's order.
      sayFlips: ({ runId, baseline }) =>
        sayFlips({
          prisma: db.prisma,
          runId,
          sourceRunId: run.id,
          baseline,
          streamed: reporters.some((name) => STREAMED_FORMATS.includes(name)),
          io,
        }),
    },
  });
}
