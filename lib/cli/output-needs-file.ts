// `--output` with only `pretty` (the default reporter) wrote nothing and said nothing: pretty
// always prints to the terminal. Said before the command runs, as a usage error.

/**
 * Why `--output` would write nothing with these reporters, or undefined; only for a command that
 * takes `--reporter` (or `--format`): review, import and export write their own file, and so does
 * calibrate.
 */
export function outputWithoutFile(command: {
  name(): string;
  opts(): Record<string, unknown>;
  options: readonly { long?: string }[];
}): string | undefined {
  // calibrate with only pretty writes its plain JSON result to --output.
  if (command.name() === "calibrate") return undefined;
  if (!command.options.some((o) => o.long === "--reporter" || o.long === "--format"))
    return undefined;
  const opts = command.opts();
  if (typeof opts.output !== "string") return undefined;
  const list = opts.format ?? opts.reporter ?? "pretty";
  if (typeof list !== "string") return undefined;
  const names = list
    .split(",")
    .map((name) => name.trim())
    .filter(Boolean);
  if (names.length > 0 && names.some((name) => name !== "pretty")) return undefined;
  return `--output ${opts.output} writes no file with --reporter pretty (the default), which prints to the terminal: add a format that is written to a file, e.g. --reporter pretty,ndjson (or json, junit, md, html, csv, tap, sarif, gitlab)`;
}
