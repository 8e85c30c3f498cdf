import path from "node:path";
import { loadSuite, formatIssue } from "../config/load-suite";
import { fileLimits } from "./file-limits";
import { openDatabase } from "../store/open-database";
import { createRunStore, type RunConfig } from "../store/run-store";
import { executeRun } from "./execute-run";
import { storedRunSetup } from "./stored-run-setup";
import { readSuiteAttachments } from "./read-suite-file";
import type { CliIo } from "./cli-io";

/**
 * `resume RUN_ID`: finishes a run whose process died. Stored results are kept;
 * the missing cells are graded again, and every judge call that finished
 * before the crash comes back from the cache, so only calls in flight are paid again.
 */
export async function resumeCommand(input: {
  runId: string;
  options: { reporter: string; output?: string; color: boolean };
  io: CliIo;
}): Promise<number> {
  const { runId, options, io } = input;
  const setup = storedRunSetup({ io, reporter: options.reporter });
  if (!setup.ok) return setup.exitCode;
  const { fail, settings, reporters } = setup;

  // Read the run's own YAML and options: the file on disk may have changed since.
  const db = await openDatabase({
    databaseUrl: settings.databaseUrl,
    dataDir: settings.dataDir,
  });
  let yaml: string;
  let config: RunConfig;
  try {
    const run = await createRunStore(db.prisma).getRun(runId);
    if (!run) return fail(`no run with id ${runId}`);
    if (run.status === "completed") return fail(`run ${runId} is already complete`);
    yaml = run.yaml;
    config = run.config;
  } finally {
    await db.close();
  }
  const limits = fileLimits(settings);
  const loaded = loadSuite({ text: yaml, file: config.file, limits });
  if (!loaded.ok) {
    for (const issue of loaded.issues) io.stderr.write(`${formatIssue(issue)}\n`);
    return 2;
  }
  // The documents and dataset files the suite names, read again from where it was run (JSONL and
  // CSV datasets as streams, as `eval` reads them: the plan is walked lazily, never held).
  const read = await readSuiteAttachments({
    suite: loaded.value,
    suitePath: path.resolve(config.cwd ?? io.cwd, config.file),
    limits,
    stream: true,
  });
  if (!read.ok) {
    for (const issue of read.issues) io.stderr.write(`${formatIssue(issue)}\n`);
    return 2;
  }
  return executeRun({
    suite: read.value,
    settings: { ...settings, judgeModel: config.judgeModel },
    config,
    io,
    reporters,
    output: options.output,
    color: options.color && Boolean(io.stdout.isTTY),
    filter: config.filter !== undefined ? new RegExp(config.filter, "i") : undefined,
    store: true,
    target: { kind: "resume", runId },
    // A run gated on a baseline is finished against the same one.
    ...(config.baseline
      ? { baseline: { ref: config.baseline.runId, maxDrop: config.baseline.maxDrop } }
      : {}),
  });
}
