import { Option, type Command } from "commander";
import { parseReporterList } from "../report/registry";
import { readEnv, type Settings } from "../env/read-env";
import { addReporterOptions } from "./reporter-options";
import { optionParsers } from "./option-parsers";
import { EXIT } from "./exit-codes";
import { isUuid } from "../store/uuid";
import { LIMITS } from "../config/limits";
import type { CliIo } from "./cli-io";
import type { CommandsContext } from "./command-context";

// The commands over the run history and its job queue: `worker`, `cancel` and `report`
// (a stored run, or a review file the Go package wrote). Registered on the program by
// main.ts, which keeps choosing the exit code: each action hands its code to setExitCode.

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

export function addHistoryCommands(program: Command, context: CommandsContext): void {
  const { io, toolVersion, setExitCode } = context;
  const { positiveInt, positiveNumber } = optionParsers;

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
      setExitCode(
        await withSettings(io, (settings) =>
          workerCommand({
            settings,
            io,
            concurrency: opts.concurrency,
            timeoutSeconds: opts.timeout,
            toolVersion,
          }),
        ),
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
      setExitCode(await withSettings(io, (settings) => cancelCommand({ runId, settings, io })));
    });

  addReporterOptions(
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
      setExitCode(EXIT.usage);
      return;
    }
    const color = opts.color && Boolean(io.stdout.isTTY);
    // A run id is a UUID, and `latest` the newest stored run; anything else names a file.
    if (runId !== "latest" && !isUuid(runId)) {
      const { reportFileCommand } = await import("./report-file-command");
      setExitCode(
        await reportFileCommand({
          file: runId,
          io,
          reporters: reporters.value,
          output: opts.output,
          color,
          toolVersion,
        }),
      );
      return;
    }
    setExitCode(
      await withSettings(io, async (settings) => {
        const { reportCommand } = await import("./queue-commands");
        return reportCommand({
          runId,
          settings,
          io,
          reporters: reporters.value,
          output: opts.output,
          color,
        });
      }),
    );
  });
}
