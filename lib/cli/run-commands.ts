import { Option, type Command } from "commander";
import { addJudgingOptions } from "./judging-options";
import { addReporterOptions } from "./reporter-options";
import { optionParsers } from "./option-parsers";
import { LIMITS } from "../config/limits";
import type { CommandsContext } from "./command-context";

// The commands that grade a suite: `eval` (with `--repeat` and `--queue`), `regrade` of a
// stored run, `resume` of a run whose process died. Registered on the program by main.ts,
// which keeps choosing the exit code: each action hands its code to setExitCode. Each action
// loads its module when it runs, so that `--help` and other commands start fast.

export function addRunCommands(program: Command, context: CommandsContext): void {
  const { io, toolVersion, setExitCode } = context;
  const { positiveInt, nonNegative } = optionParsers;

  addReporterOptions(
    addJudgingOptions(
      program
        .command("eval")
        .description(
          "Grade every eval of a suite with the judge, or print the plan and its cost with --explain.",
        )
        .requiredOption("-c, --config <file>", "the suite YAML file"),
      optionParsers,
    ).option(
      "--explain",
      "print the plan: rubric, candidate, judge model(s), judge calls and projected cost; calls no provider",
    ),
  )
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
        "Exit codes: 0 every eval passed or deferred, 1 any eval failed, was a judge_error or " +
          "was skipped (budget, cancelled or interrupted), or regressed against --baseline, " +
          "2 config or usage error.",
        "Without ANTHROPIC_API_KEY every Claude-judged eval defers: not graded, reported deferred, " +
          "not passed (with the cause), and exit 0, so a key-free CI run stays green.",
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
        setExitCode(await repeatCommand({ options: opts, io, toolVersion }));
        return;
      }
      const { evalCommand } = await import("./eval-command");
      setExitCode(await evalCommand({ options: opts, io, toolVersion }));
    });

  addReporterOptions(
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
      .option("--judge <model>", "grade with this judge model instead of each eval's"),
  )
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
      setExitCode(await regradeCommand({ ref, options: opts, io }));
    });

  addReporterOptions(
    program
      .command("resume")
      .description(
        "Finish a stored run whose process died: grades only the missing results, reusing " +
          "every judge verdict that was already paid for.",
      )
      .argument("<run-id>", "the id printed as 'Storing run ...'"),
  ).action(async (runId: string, opts: { reporter: string; output?: string; color: boolean }) => {
    const { resumeCommand } = await import("./resume-command");
    setExitCode(await resumeCommand({ runId, options: opts, io }));
  });
}
