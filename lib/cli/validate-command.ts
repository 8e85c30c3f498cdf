import { formatIssue } from "../config/load-suite";
import { readSuiteFile } from "./read-suite-file";
import type { CliIo } from "./main";

export async function validateCommand(input: { file: string; io: CliIo }): Promise<number> {
  const { file, io } = input;
  const loaded = await readSuiteFile({ file, cwd: io.cwd });
  if (!loaded.ok) {
    for (const issue of loaded.issues) io.stderr.write(`${formatIssue(issue)}\n`);
    io.stderr.write(`${file}: ${loaded.issues.length} problem${loaded.issues.length === 1 ? "" : "s"}\n`);
    return 2;
  }
  for (const warning of loaded.warnings) io.stderr.write(`${formatIssue(warning)}\n`);
  const evals = loaded.value.evals;
  const cells = evals.reduce((n, e) => n + (e.matrix?.models?.length ?? 1) * (e.matrix?.prompts?.length ?? 1), 0);
  io.stdout.write(`${file}: valid (${evals.length} eval${evals.length === 1 ? "" : "s"}, ${cells} cell${cells === 1 ? "" : "s"})\n`);
  return 0;
}
