import { Option, type Command } from "commander";
import { addJudgingOptions, type JudgingParsers } from "./judging-options";
import type { CommandsContext } from "./command-context";

// The commands of category reviews and judge-trust statistics, registered on
// the program by main.ts. main.ts keeps choosing the exit code: each action
// hands its code to setExitCode. Each action loads its module when it runs,
// as main.ts does, so that `--help` and other commands start fast.

export interface ReviewCommandsContext extends CommandsContext {
  parsers: JudgingParsers;
}

export function addReviewCommands(program: Command, context: ReviewCommandsContext): void {
  const { io, toolVersion, setExitCode, parsers } = context;

  addJudgingOptions(
    program
      .command("review")
      .description(
        "Review documents against the suite's category rubrics; writes each review as " +
          "EvaluationReport JSON (the Go package's wire format).",
      )
      .requiredOption("-c, --config <file>", "the suite YAML file"),
    parsers,
  )
    .option("-o, --output <file>", "write the JSON there instead of stdout")
    .option(
      "--multi-judge",
      "write the MultiJudgeResult (every judge's report, agreement, disagreements) instead of the consolidated report",
    )
    .addHelpText(
      "after",
      [
        "",
        "One review prints one JSON object, several an array. A jury or panel is " +
          "aggregated by judge.aggregate (majority, conservative, optimistic, unanimous).",
        "Exit codes: 0 every review passed (pass, or conditional with passed: true), 1 a " +
          "review failed, needs human_review, was a judge_error or skipped, 2 config or " +
          "usage error.",
        "",
        "Examples:",
        "  rubric-studio review --config reviews.yaml --output reports/prd-review.json",
        "  rubric-studio review --config reviews.yaml --multi-judge --filter '^checkout'",
      ].join("\n"),
    )
    .action(async (opts) => {
      const { reviewCommand } = await import("./review-command");
      setExitCode(await reviewCommand({ options: opts, io, toolVersion }));
    });

  addJudgingOptions(
    program
      .command("calibrate")
      .description(
        "Grade every calibration anchor, category example and annotated dataset item with " +
          "the configured judge, and compare with the labels.",
      )
      .requiredOption("-c, --config <file>", "the suite YAML file"),
    parsers,
  )
    .option(
      "--tolerance <delta>",
      "an item judged further than this from its label (0..1 scale) is an outlier",
      parsers.nonNegative("--tolerance"),
      0.25,
    )
    .option(
      "--max-error <mae>",
      "exit 1 when a criterion's mean absolute error is above this",
      parsers.nonNegative("--max-error"),
    )
    .option(
      "-r, --reporter <formats>",
      "pretty (the table), json (the canonical report with its calibration section), md, html; comma-separated",
      "pretty",
    )
    .addOption(new Option("--format <formats>", "the same as --reporter").hideHelp())
    .option(
      "--json",
      "print the plain calibration result as JSON (the object the dashboard's calibration view draws)",
    )
    .option(
      "-o, --output <path>",
      "where json, md and html go (a file for one, a directory for several); with only " +
        "pretty, the plain JSON result is written there",
    )
    .option(
      "--store",
      "keep the calibration in the run history (the embedded database; on whenever " +
        "DATABASE_URL is set), for the dashboard's calibration view and drift",
    )
    .option(
      "--suite <name>",
      "with --store: the stored suite to file the calibration under (default: the --config file's path from the root of its git work tree, else the path as given), e.g. the dashboard suite a download came from",
    )
    .addHelpText(
      "after",
      [
        "",
        "Per criterion: judged vs labelled, MAE, Cohen's kappa (quadratic weights for " +
          "ordinal scales), a confusion matrix and the outliers.",
        "An anchor is graded with itself left out of the prompt's calibration examples.",
        "Exit codes: 0 calibrated (or deferred without ANTHROPIC_API_KEY), 1 a criterion's " +
          "MAE is above --max-error or an item could not be graded, 2 config or usage error, " +
          "or nothing to calibrate.",
        "",
        "Example:",
        "  rubric-studio calibrate --config suite.yaml --max-error 0.15 --output reports/calibration.json",
        "  rubric-studio calibrate --config suite.yaml --reporter pretty,md,html --output reports/ --store",
      ].join("\n"),
    )
    .action(async (opts) => {
      const { calibrateCommand } = await import("./calibrate-command");
      setExitCode(await calibrateCommand({ options: opts, io, toolVersion }));
    });

  program
    .command("import")
    .description(
      "Turn a RubricSet JSON file (the Go package's wire format) into a suite in the YAML language.",
    )
    .argument("<rubricset.json>", "the RubricSet JSON file")
    .option("-o, --output <file>", "write the suite there instead of stdout")
    .option(
      "--document <file>",
      "the document the suite's review eval grades (must exist; without it the eval reads " +
        "document.md next to the suite)",
    )
    .addHelpText(
      "after",
      "\nExit codes: 0 written, 2 the file is not a RubricSet or cannot be expressed, or " +
        "--document does not exist.\n\nExample:\n  rubric-studio import prd-rubric.json " +
        "--output reviews.yaml --document docs/prd.md",
    )
    .action(async (file: string, opts: { output?: string; document?: string }) => {
      const { importCommand } = await import("./import-command");
      setExitCode(await importCommand({ file, options: opts, io }));
    });

  program
    .command("export")
    .description(
      "Write a category rubric of the suite as RubricSet JSON (the Go package's wire format): the reverse of import.",
    )
    .requiredOption("-c, --config <file>", "the suite YAML file")
    .option("--rubric <id>", "the rubric's id, when the suite's evals use several category rubrics")
    .option("-o, --output <file>", "write the JSON there instead of stdout")
    .addHelpText(
      "after",
      "\nExit codes: 0 written, 2 the suite does not load, has no category rubric, or has " +
        "several and --rubric names none of them.\n\nExample:\n  rubric-studio export " +
        "--config reviews.yaml --rubric prd-quality --output prd-rubric.json",
    )
    .action(async (opts: { config: string; rubric?: string; output?: string }) => {
      const { exportCommand } = await import("./export-command");
      setExitCode(await exportCommand({ options: opts, io }));
    });
}
