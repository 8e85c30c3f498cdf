import path from "node:path";
import { formatIssue, loadSuite } from "../config/load-suite";
import { modelNameProblem } from "../config/check-providers";
import type { LoadResult } from "../config/types";
import { planSuite } from "../engine/plan/plan-suite";
import {
  hasStoredCandidate,
  replayStoredCandidates,
  storedResponses,
} from "../engine/trust/regrade/regrade";
import { withJudge } from "../engine/trust/regrade/with-judge";
import type { Settings } from "../env/read-env";
import { fileLimits } from "./file-limits";
import { openDatabase } from "../store/open-database";
import { createRunStore, type StoredRun } from "../store/run-store";
import type { EvalResult } from "../engine/results/report";
import type { CliIo } from "./cli-io";
import { executeRun } from "./execute-run";
import { storedRunSetup } from "./stored-run-setup";
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

async function sourceRun(input: {
  ref: string;
  settings: Settings;
}): Promise<{ run: StoredRun; results: EvalResult[] } | string> {
  const db = await openDatabase({
    databaseUrl: input.settings.databaseUrl,
    dataDir: input.settings.dataDir,
  });
  try {
    const store = createRunStore(db.prisma);
    // `latest` is what `report latest` names, whatever file --config reads (an edited copy, say).
    const id = input.ref !== "latest" ? input.ref : await store.newestRunId();
    const run = id === undefined ? undefined : await store.getRun(id);
    if (!run)
      return input.ref === "latest"
        ? "no stored run to regrade yet"
        : `no run with id ${input.ref}`;
    return { run, results: await store.results(run.id) };
  } finally {
    await db.close();
  }
}

export async function regradeCommand(input: {
  ref: string;
  options: RegradeOptions;
  io: CliIo;
}): Promise<number> {
  const { ref, options, io } = input;
  const setup = storedRunSetup({ io, reporter: options.reporter });
  if (!setup.ok) return setup.exitCode;
  const { fail, settings, reporters } = setup;
  const found = await sourceRun({ ref, settings: settings });
  if (typeof found === "string") return fail(found);
  const { run, results } = found;

  // The suite to grade with: the file given, else the run's own text (read again with its files from where it ran).
  let loaded: LoadResult & { text?: string };
  const limits = fileLimits(settings);
  if (options.config !== undefined) {
    loaded = await readSuiteFile({ file: options.config, cwd: io.cwd, limits });
  } else {
    const own = loadSuite({ text: run.yaml, file: run.config.file, limits });
    loaded = own.ok
      ? await readSuiteAttachments({
          suite: own.value,
          suitePath: path.resolve(run.config.cwd ?? io.cwd, run.config.file),
          limits,
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

  // Matched by eval name and cell: the result ids both runs share.
  const planned = new Set(planSuite({ suite, defaultModel: judgeModel }).map((c) => c.id));
  const stored = new Set(results.map((r) => r.id));
  const gone = results.filter((r) => !planned.has(r.id)).map((r) => r.name);
  const added = [...planned].filter((id) => !stored.has(id));
  if (gone.length)
    io.stderr.write(`Not in the suite any more (not regraded): ${gone.join(", ")}\n`);
  if (added.length)
    io.stderr.write(
      `New in the suite, with no stored candidate (grade them with rubric-studio eval): ${added.join(", ")}\n`,
    );
  // A result that ended before it had a candidate (an agent or generation call that failed, a deferral) has nothing to grade again.
  const empty = results.filter((r) => planned.has(r.id) && !hasStoredCandidate(r));
  if (empty.length)
    io.stderr.write(
      `No stored candidate (not regraded): ${empty.map((r) => `${r.name} (${r.status})`).join(", ")}\n`,
    );
  const withCandidate = new Set(results.filter(hasStoredCandidate).map((r) => r.id));
  const cells = new Set([...planned].filter((id) => withCandidate.has(id)));
  io.stderr.write(
    `Regrading ${cells.size} of ${results.length} results of run ${run.id}: no generation or agent call\n`,
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
      live: replayStoredCandidates({ results, sourceRunId: run.id }),
      cells,
      responses: storedResponses(results),
    },
  });
}
