import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Report } from "../engine/report";
import { REPORTERS, type ReporterName } from "../report/registry";
import type { CliIo } from "./main";

/**
 * Pretty is for people: it always goes to the terminal. Machine formats go to
 * --output (a file for one format, a directory for several), else to stdout.
 */
export async function writeReports(input: { names: ReporterName[]; report: Report; output?: string; io: CliIo; color: boolean }): Promise<void> {
  const { names, report, output, io, color } = input;
  const files = names.filter((n) => n !== "pretty");
  for (const name of names) {
    const text = REPORTERS[name].render(report, { color: color && name === "pretty" });
    const withNewline = text.endsWith("\n") ? text : `${text}\n`;
    if (name === "pretty" || output === undefined) {
      io.stdout.write(withNewline);
      continue;
    }
    const target = files.length === 1 ? path.resolve(io.cwd, output) : path.join(path.resolve(io.cwd, output), `report.${REPORTERS[name].extension}`);
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, withNewline);
    io.stderr.write(`wrote ${name} report to ${path.relative(io.cwd, target) || target}\n`);
  }
}
