import { Command, CommanderError, InvalidArgumentError, Option } from "commander";
import { readFileSync } from "node:fs";
import { validateCommand } from "./validate-command";
import { outputWithoutFile } from "./output-needs-file";
import { parseReporterList, REPORTER_NAMES } from "../report/registry";
import { readEnv, type Settings } from "../env/read-env";
import { addJudgingOptions } from "./judging-options";
import { addReviewCommands } from "./review-commands";
import { LIMITS, formatCount } from "../config/limits";
import type { CliIo } from "./cli-io";

const REPORTER_HELP = `${REPORTER_NAMES.join(", ")} (comma-separated)`;

// `rubric-studio`: the command-line face of the engine. Exit codes are chosen
// here and only here: 0 all passed, 1 a fail / judge_error / budget skip,
// 2 a config or usage error.

export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

// Commands load their modules when they run, so that `validate` and `--help`
// do not pay for the judge, the store and the job queue.
function toolVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as {
    version: string;
  };
  return pkg.version;
}

function positiveInt(name: string, max = Number.MAX_SAFE_INTEGER) {
  return (value: string) => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 1)
      throw new InvalidArgumentError(`${name} must be a whole number of at least 1`);
    if (n > max) throw new InvalidArgumentError(`${name} must be at most ${formatCount(max)}`);
    return n;
  };
}

function positiveNumber(name: string) {
  return (value: string) => {
    const n = Number(value);
    if (!Number.isFinite(n) || n <= 0)
      throw new InvalidArgumentError(`${name} must be a number greater than 0`);
    return n;
  };
}

function nonNegative(name: string) {
  return (value: string) => {
    const n = Number(value);
    if (!Number.isFinite(n) || n < 0)
      throw new InvalidArgumentError(`${name} must be a number of at least 0`);
    return n;
  };
}

// The SDK warns on the console for every request to a deprecated model; a
// run of 600 calls should say so once.
function warnOnce(): void {
  const seen = new Set<string>();
  const warn = console.warn.bind(console);
  console.warn = (...args: unknown[]) => {
    const key = args.map(String).join(" ");
    if (seen.has(key)) return;
    seen.add(key);
    warn(...args);
  };
}

async function withSettings(
  io: CliIo,
  work: (settings: Settings) => Promise<number>,
): Promise<number> {
  const settings = readEnv(io.env);
  if (!settings.ok) {
    io.stderr.write(`error: ${settings.message}\n`);
    return EXIT.usage;
  }
  return work(settings.value);
}

export async function main(argv: string[], io: CliIo): Promise<number> {
  warnOnce();
  let exitCode: number = EXIT.ok;
  const version = toolVersion();
  const program = new Command()
    .name("rubric-studio")
    .description(
      "Author, run and gate LLM-as-judge rubrics. Grades responses with a Claude judge; " +
        "see README.md for the YAML language.",
    )
    .version(version)
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.stdout.write(s), writeErr: (s) => io.stderr.write(s) })
    .showHelpAfterError("(run with --help for usage)")
    .hook("preAction", (_program, action) => {
      const problem = outputWithoutFile(action);
      if (problem) action.error(`error: ${problem}`, { exitCode: EXIT.usage });
    });

  program
    .command("validate")
    .description(
      "Check a suite: YAML syntax, every field, refs, presets, regexes. Prints file:line:column for each problem.",
    )
    .requiredOption("-c, --config <file>", "the suite YAML file")
    .addHelpText(
      "after",
      "\nExit codes: 0 valid, 2 invalid.\n\nExample:\n  rubric-studio validate --config examples/rubric-eval.yaml",
    )
    .action(async (opts: { config: string }) => {
      exitCode = await validateCommand({ file: opts.config, io });
    });

  addJudgingOptions(
    program
      .command("eval")
      .description(
        "Grade every eval of a suite with the judge, or print the plan and its cost with --explain.",
      )
      .requiredOption("-c, --config <file>", "the suite YAML file"),
    { positiveInt, positiveNumber, nonNegative },
  )
    .option(
      "--explain",
      "print the plan: rubric, candidate, judge model(s), judge calls and projected cost; calls no provider",
    )
    .option("-r, --reporter <formats>", REPORTER_HELP, "pretty")
    .option(
      "-o, --output <path>",
      "write the report there (a directory when several non-pretty formats are asked for)",
    )
    .option("--no-color", "plain text, no ANSI colours")
    .option(
      "--store",
      "keep the run in the run history (the embedded database, or DATABASE_URL; on whenever DATABASE_URL is set)",
    )
    .option(
      "--no-cache",
      "ask the judge afresh instead of reusing stored verdicts (with run history)",
    )
    .option(
      "--baseline <run>",
      "compare with a stored run (its id, or latest): exit 1 when a score drops by more " +
        "than --max-drop or an eval newly fails",
    )
    .addOption(
      new Option(
        "--max-drop <delta>",
        "largest allowed score drop against --baseline, on the 0..1 scale",
      )
        .argParser(nonNegative("--max-drop"))
        .default(0.05),
    )
    .addOption(
      new Option(
        "--repeat <n>",
        "grade every judge call n times and report, per criterion, how often pass/fail flipped",
      ).argParser(positiveInt("--repeat", LIMITS.repeats)),
    )
    .option(
      "--queue",
      "split the run into jobs on the job queue: graded here and by any `rubric-studio worker` on the same database",
    )
    .option(
      "--detach",
      "with --queue: print the run id and exit; workers grade it (see `rubric-studio report`)",
    )
    .addHelpText(
      "after",
      [
        "",
        "Exit codes: 0 every eval passed (deferred counts as passed), 1 any eval failed, " +
          "was a judge_error or was skipped (budget, cancelled or interrupted), 2 config or " +
          "usage error.",
        "Without ANTHROPIC_API_KEY every eval defers: reported passed with a note, so a key-free CI run stays green.",
        "",
        "Examples:",
        "  rubric-studio eval --explain --config suite.yaml",
        "  rubric-studio eval --config suite.yaml --reporter pretty,junit --output reports/junit.xml",
        "  rubric-studio eval --config suite.yaml --max-cost 0.50 --concurrency 16 --filter '^billing'",
      ].join("\n"),
    )
    .action(async (opts) => {
      if (opts.repeat > 1) {
        const { repeatCommand } = await import("./repeat-command");
        exitCode = await repeatCommand({ options: opts, io, toolVersion: version });
        return;
      }
      const { evalCommand } = await import("./eval-command");
      exitCode = await evalCommand({ options: opts, io, toolVersion: version });
    });

  program
    .command("regrade")
    .description(
      "Grade a stored run's candidates again (fixed, generated and live alike) with a suite's rubrics and judges: no generation or agent call; a new stored run, compared with its source.",
    )
    .argument("<run>", "the run id, or latest")
    .option(
      "-c, --config <file>",
      "grade with this suite file (default: the run's own suite text); results match by eval name and cell",
    )
    .option("--judge <model>", "grade with this judge model instead of each eval's")
    .option("-r, --reporter <formats>", REPORTER_HELP, "pretty")
    .option(
      "-o, --output <path>",
      "write the report there (a directory when several non-pretty formats are asked for)",
    )
    .option("--no-color", "plain text, no ANSI colours")
    .addOption(
      new Option(
        "--max-drop <delta>",
        "largest allowed score drop against the source run, on the 0..1 scale",
      )
        .argParser(nonNegative("--max-drop"))
        .default(0.05),
    )
    .addHelpText(
      "after",
      "\nExit codes: as eval with the source run as --baseline (1 when a result newly fails or drops by more than --max-drop), 2 config or usage error.",
    )
    .action(async (ref: string, opts) => {
      const { regradeCommand } = await import("./regrade-command");
      exitCode = await regradeCommand({ ref, options: opts, io });
    });

  program
    .command("resume")
    .description(
      "Finish a stored run whose process died: grades only the missing results, reusing " +
        "every judge verdict that was already paid for.",
    )
    .argument("<run-id>", "the id printed as 'Storing run ...'")
    .option("-r, --reporter <formats>", REPORTER_HELP, "pretty")
    .option(
      "-o, --output <path>",
      "write the report there (a directory when several non-pretty formats are asked for)",
    )
    .option("--no-color", "plain text, no ANSI colours")
    .action(async (runId: string, opts: { reporter: string; output?: string; color: boolean }) => {
      const { resumeCommand } = await import("./resume-command");
      exitCode = await resumeCommand({ runId, options: opts, io });
    });

  addReviewCommands(program, {
    io,
    toolVersion: version,
    setExitCode: (code) => (exitCode = code),
    parsers: { positiveInt, positiveNumber, nonNegative },
  });

  const reporterOptions = (command: Command) =>
    command
      .option("-r, --reporter <formats>", REPORTER_HELP, "pretty")
      .option(
        "-o, --output <path>",
        "write the report there (a directory when several non-pretty formats are asked for)",
      )
      .option("--no-color", "plain text, no ANSI colours");

  program
    .command("worker")
    .description(
      "Grade queued runs (eval --queue) from the run-history database, alongside any other workers, until Ctrl-C.",
    )
    .addOption(
      new Option("--concurrency <n>", "judge calls in flight at once")
        .argParser(positiveInt("--concurrency", LIMITS.concurrency))
        .default(8),
    )
    .addOption(
      new Option("--timeout <seconds>", "timeout of one judge request")
        .argParser(positiveNumber("--timeout"))
        .default(60),
    )
    .action(async (opts: { concurrency: number; timeout: number }) => {
      const { workerCommand } = await import("./queue-commands");
      exitCode = await withSettings(io, (settings) =>
        workerCommand({
          settings,
          io,
          concurrency: opts.concurrency,
          timeoutSeconds: opts.timeout,
          toolVersion: version,
        }),
      );
    });

  program
    .command("cancel")
    .description(
      "Ask a queued or running run to stop: no new judge or agent calls start, even inside " +
        "an eval being graded; what is left reports skipped (cancelled).",
    )
    .argument("<run-id>")
    .action(async (runId: string) => {
      const { cancelCommand } = await import("./queue-commands");
      exitCode = await withSettings(io, (settings) => cancelCommand({ runId, settings, io }));
    });

  reporterOptions(
    program
      .command("report")
      .description(
        "Render a stored run in any format (for a run started with --detach, or any past " +
          "run), or a review file the Go package wrote (EvaluationReport JSON, an array of " +
          "them, or a MultiJudgeResult).",
      )
      .argument(
        "<run-id|latest|file>",
        "a run id, latest (the newest stored run), or the path of a Go EvaluationReport JSON file",
      ),
  ).action(async (runId: string, opts: { reporter: string; output?: string; color: boolean }) => {
    const reporters = parseReporterList(opts.reporter);
    if (!reporters.ok) {
      io.stderr.write(`error: ${reporters.message}\n`);
      exitCode = EXIT.usage;
      return;
    }
    const color = opts.color && Boolean(io.stdout.isTTY);
    // A run id is a UUID, and `latest` the newest stored run; anything else names a file.
    if (
      runId !== "latest" &&
      !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(runId)
    ) {
      const { reportFileCommand } = await import("./report-file-command");
      exitCode = await reportFileCommand({
        file: runId,
        io,
        reporters: reporters.value,
        output: opts.output,
        color,
        toolVersion: version,
      });
      return;
    }
    exitCode = await withSettings(io, async (settings) => {
      const { reportCommand } = await import("./queue-commands");
      return reportCommand({
        runId,
        settings,
        io,
        reporters: reporters.value,
        output: opts.output,
        color,
      });
    });
  });

  try {
    await program.parseAsync(argv, { from: "user" });
  } catch (error) {
    if (error instanceof CommanderError) {
      if (
        error.code === "commander.helpDisplayed" ||
        error.code === "commander.version" ||
        error.code === "commander.help"
      )
        return EXIT.ok;
      return EXIT.usage;
    }
    throw error;
  }
  return exitCode;
}
