import { Option, type Command } from "commander";
import { LIMITS } from "../config/limits";

type Parser = (flag: string, max?: number) => (value: string) => number;
export type JudgingParsers = { positiveInt: Parser; positiveNumber: Parser; nonNegative: Parser };

/**
 * The options every grading command shares (`eval`, `review`, `calibrate`): budget, concurrency,
 * request timeout, eval filter.
 */
export function addJudgingOptions(
  command: Command,
  parsers: { positiveInt: Parser; positiveNumber: Parser; nonNegative: Parser },
): Command {
  return command
    .option(
      "--max-cost <usd>",
      "stop scheduling judge calls before the spend would pass this many US dollars",
      parsers.nonNegative("--max-cost"),
    )
    .option(
      "--allow-unpriced",
      "with --max-cost, run even when a judge model has no known price (its calls count as $0)",
    )
    .addOption(
      new Option("--concurrency <n>", "judge calls in flight at once")
        .argParser(parsers.positiveInt("--concurrency", LIMITS.concurrency))
        .default(8),
    )
    .addOption(
      new Option("--timeout <seconds>", "timeout of one judge request (fractions allowed)")
        .argParser(parsers.positiveNumber("--timeout"))
        .default(60),
    )
    .option(
      "--filter <pattern>",
      "only evals whose name matches this regular expression (case-insensitive)",
    )
    .option(
      "--batch",
      "send the judge calls through Message Batches, round by round: half price, may take " +
        "up to 24 h (Anthropic's API; other providers are called directly)",
    )
    .addOption(
      new Option(
        "--poll-interval <seconds>",
        "with --batch, how often to look at a batch in progress (fractions allowed)",
      )
        .argParser(parsers.positiveNumber("--poll-interval"))
        .default(30),
    );
}
