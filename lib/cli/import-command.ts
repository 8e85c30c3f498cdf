import { readFile, writeFile, mkdir } from "node:fs/promises";
import path from "node:path";
import { formatIssue, loadSuite } from "../config/load-suite";
import { parseRubricSetJson, rubricSetToSuiteYaml } from "../config/rubric-set-json";
import type { CliIo } from "./main";

// `rubric-studio import rubricset.json`: the Go package's RubricSet JSON in,
// a suite in the YAML language out (the rubric under rubrics:, and one review
// eval of --document). The written suite is loaded before it is written, so
// what import writes always validates. Exit 0, or 2 with what is wrong.

export async function importCommand(input: { file: string; options: { output?: string; document: string }; io: CliIo }): Promise<number> {
  const { file, options, io } = input;
  const fail = (lines: string[]) => {
    for (const line of lines) io.stderr.write(`${file}: ${line}\n`);
    return 2;
  };
  let text: string;
  try {
    text = await readFile(path.resolve(io.cwd, file), "utf8");
  } catch (error) {
    return fail([`cannot read the file: ${(error as NodeJS.ErrnoException).code === "ENOENT" ? "file not found" : (error as Error).message}`]);
  }
  const parsed = parseRubricSetJson(text);
  if (!parsed.ok) return fail(parsed.issues);
  const suite = rubricSetToSuiteYaml({ rubric: parsed.value, document: options.document, source: path.basename(file) });
  if (!suite.ok) return fail(suite.issues);
  const target = options.output ?? "suite.yaml";
  const loaded = loadSuite({ text: suite.text, file: target });
  if (!loaded.ok) return fail(loaded.issues.map((issue) => formatIssue(issue)));
  for (const warning of loaded.warnings) io.stderr.write(`${formatIssue(warning)}\n`);
  if (options.output === undefined) {
    io.stdout.write(suite.text);
    return 0;
  }
  const out = path.resolve(io.cwd, options.output);
  await mkdir(path.dirname(out), { recursive: true });
  await writeFile(out, suite.text);
  io.stderr.write(`wrote ${options.output}: rubric "${parsed.value.id}" with ${parsed.value.categories.length} categories; review ${options.document} with rubric-studio review --config ${options.output}\n`);
  return 0;
}
