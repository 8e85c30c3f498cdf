import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Report } from "../engine/results/report";
import { REPORTERS, type ReporterName } from "../report/registry";
import type { CliIo } from "./cli-io";

/**
 * Pretty is for people: it always goes to the terminal. Machine formats go to
 * --output (a file for one format, a directory for several), else to stdout.
 */
export async function writeReports(input: {
  names: ReporterName[];
  report: Report;
  output?: string;
  io: CliIo;
  color: boolean;
}): Promise<void> {
  const { names, report, output, io, color } = input;
  const files = names.filter((n) => n !== "pretty");
  for (const name of names) {
    const text = REPORTERS[name].render(report, { color: color && name === "pretty" });
    const withNewline = text.endsWith("\n") ? text : `${text}\n`;
    if (name === "pretty" || output === undefined) {
      io.stdout.write(withNewline);
      continue;
    }
    const extension = REPORTERS[name].extension;
    // json and gitlab are both .json: formats that share an extension are told apart by name.
    const shared = files.some(
      (other) => other !== name && REPORTERS[other].extension === extension,
    );
    const fileName = shared ? `report.${name}.${extension}` : `report.${extension}`;
    const target =
      files.length === 1
        ? path.resolve(io.cwd, output)
        : path.join(path.resolve(io.cwd, output), fileName);
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, withNewline);
    io.stderr.write(`wrote ${name} report to ${path.relative(io.cwd, target) || target}\n`);
  }
}
