import { statSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Report } from "../engine/results/report";
import { REPORTERS, type ReporterName } from "../report/registry";
import type { CliIo } from "./cli-io";

/**
 * The file a format is written to: --output itself for one machine format, `report.EXT` in
 * the --output directory for several (or for one, when --output ends with a slash or is a folder
 * that exists); undefined: stdout (pretty always, the others without --output).
 */
export function reportTarget(input: {
  names: readonly ReporterName[];
  name: ReporterName;
  output: string | undefined;
  cwd: string;
}): string | undefined {
  const { names, name, output, cwd } = input;
  if (name === "pretty" || output === undefined) return undefined;
  const files = names.filter((n) => n !== "pretty");
  const extension = REPORTERS[name].extension;
  // json and gitlab are both .json: formats that share an extension are told apart by name, but
  // the one named as its extension keeps report.<ext> (report.json and report.gitlab.json).
  const shared =
    name !== extension &&
    files.some((other) => other !== name && REPORTERS[other].extension === extension);
  const fileName = shared ? `report.${name}.${extension}` : `report.${extension}`;
  return files.length === 1 && !namesFolder(path.resolve(cwd, output), output)
    ? path.resolve(cwd, output)
    : path.join(path.resolve(cwd, output), fileName);
}

/** `out/`, or a folder that is there: the report goes inside it, not over it as a file named `out`. */
function namesFolder(resolved: string, given: string): boolean {
  return (
    /[\\/]$/.test(given) || statSync(resolved, { throwIfNoEntry: false })?.isDirectory() === true
  );
}

/**
 * A written report's path as the user gave --output: absolute for an absolute --output, else
 * relative to where the command ran (never "../../tmp/r.json" for "/tmp/r.json").
 */
export function shownTarget(input: { target: string; output: string | undefined; cwd: string }) {
  if (input.output !== undefined && path.isAbsolute(input.output)) return input.target;
  return path.relative(input.cwd, input.target) || input.target;
}

/**
 * Pretty is for people: it always goes to the terminal. Machine formats go to
 * --output (a file for one format, a directory for several), else to stdout.
 */
export async function writeReports(input: {
  names: ReporterName[];
  report: Report;
  output?: string;
  /** Every format of the command, when `names` are some of them (the others streamed): the files are named among all. */
  outputNames?: ReporterName[];
  io: CliIo;
  color: boolean;
}): Promise<void> {
  const { names, report, output, io, color } = input;
  for (const name of names) {
    const text = REPORTERS[name].render(report, { color: color && name === "pretty" });
    const withNewline = text.endsWith("\n") ? text : `${text}\n`;
    const target = reportTarget({ names: input.outputNames ?? names, name, output, cwd: io.cwd });
    if (target === undefined) {
      io.stdout.write(withNewline);
      continue;
    }
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, withNewline);
    io.stderr.write(
      `wrote ${name} report to ${shownTarget({ target, output: input.output, cwd: io.cwd })}\n`,
    );
  }
}
