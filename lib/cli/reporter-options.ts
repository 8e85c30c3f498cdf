import type { Command } from "commander";
import { REPORTER_NAMES } from "../report/registry";

/** `--reporter`, `--output` and `--no-color`, as every command that renders a run takes them. */
export function addReporterOptions(command: Command): Command {
  return command
    .option("-r, --reporter <formats>", `${REPORTER_NAMES.join(", ")} (comma-separated)`, "pretty")
    .option(
      "-o, --output <path>",
      "write the report there (a directory when several non-pretty formats are asked for)",
    )
    .option("--no-color", "plain text, no ANSI colours");
}
