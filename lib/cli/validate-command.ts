import { formatIssue } from "../config/load-suite";
import { planSuite } from "../engine/plan/plan-suite";
import { readSuiteFile } from "./read-suite-file";
import type { CliIo } from "./cli-io";

export async function validateCommand(input: { file: string; io: CliIo }): Promise<number> {
  const { file, io } = input;
  const loaded = await readSuiteFile({ file, cwd: io.cwd });
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
  const cells = planSuite({ suite: loaded.value, defaultModel: "default" }).length;
  io.stdout.write(
    `${file}: valid (${evals.length} eval${evals.length === 1 ? "" : "s"}, ${cells} cell${cells === 1 ? "" : "s"})\n`,
  );
  return 0;
}
