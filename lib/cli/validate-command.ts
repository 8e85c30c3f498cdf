import { formatIssue } from "../config/load-suite";
import { planTotals } from "../engine/plan/plan-suite";
import { plural } from "../engine/results/format-score";
import { readPlanLimitSettings } from "../env/read-env";
import { fileLimits } from "./file-limits";
import { readSuiteFile } from "./read-suite-file";
import type { CliIo } from "./cli-io";

export async function validateCommand(input: { file: string; io: CliIo }): Promise<number> {
  const { file, io } = input;
  const settings = readPlanLimitSettings(io.env);
  if (!settings.ok) {
    io.stderr.write(`error: ${settings.message}\n`);
    return 2;
  }
  // Datasets stay streams: a file of any size is checked in one pass and counted, never held.
  const loaded = await readSuiteFile({
    file,
    cwd: io.cwd,
    limits: fileLimits(settings.value),
    stream: true,
  });
  if (!loaded.ok) {
    for (const issue of loaded.issues) io.stderr.write(`${formatIssue(issue)}\n`);
    io.stderr.write(
      `${file}: ${loaded.issues.length} problem${loaded.issues.length === 1 ? "" : "s"}\n`,
    );
    return 2;
  }
  for (const warning of loaded.warnings) io.stderr.write(`${formatIssue(warning)}\n`);
  const evals = loaded.value.evals;
  // The cells `eval` would grade (dataset items and every matrix axis); the judge model does not change how many.
  const { cells } = planTotals({ suite: loaded.value, defaultModel: "default" });
  io.stdout.write(`${file}: valid (${plural(evals.length, "eval")}, ${plural(cells, "cell")})\n`);
  return 0;
}
