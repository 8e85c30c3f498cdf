import { Command, CommanderError } from "commander";
import { readFileSync } from "node:fs";
import { validateCommand } from "./validate-command";
import { outputWithoutFile } from "./output-needs-file";
import { addRunCommands } from "./run-commands";
import { addReviewCommands } from "./review-commands";
import { addHistoryCommands } from "./history-commands";
import { optionParsers } from "./option-parsers";
import { EXIT } from "./exit-codes";
import type { CliIo } from "./cli-io";

// `rubric-studio`: the command-line face of the engine. Exit codes are chosen
// here and in the command groups registered here (run-commands.ts,
// review-commands.ts, history-commands.ts), each action handing its code back:
// 0 all passed, 1 a fail / judge_error / budget skip, 2 a config or usage error.

export { EXIT };

// Commands load their modules when they run, so that `validate` and `--help`
// do not pay for the judge, the store and the job queue.
function toolVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as {
    version: string;
  };
  return pkg.version;
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

export async function main(argv: string[], io: CliIo): Promise<number> {
  warnOnce();
  let exitCode: number = EXIT.ok;
  const version = toolVersion();
  const program = new Command()
    .name("rubric-studio")
    .description(
      "Author, run and gate LLM-as-judge rubrics. Grades responses with a Claude judge, or " +
        "an OpenAI-compatible one (README: providers); " +
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

  const context = { io, toolVersion: version, setExitCode: (code: number) => (exitCode = code) };
  addRunCommands(program, context);
  addReviewCommands(program, { ...context, parsers: optionParsers });
  addHistoryCommands(program, context);

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
