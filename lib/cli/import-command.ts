import { writeFile, mkdir, stat } from "node:fs/promises";
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { loadSuite } from "../config/load-suite";
import { rubricSetPathOf } from "../config/rubric-set-paths";
import type { ConfigIssue } from "../config/types";
import { parseRubricSetJson, rubricSetToSuiteYaml } from "../config/rubric-set-json";
import type { CliIo } from "./cli-io";
import { readBoundedFile } from "./read-bounded-file";

// `rubric-studio import rubricset.json`: the Go package's RubricSet JSON in,
// a suite in the YAML language out (the rubric under rubrics:, and one review
// eval of --document). The written suite is loaded before it is written, so
// what import writes always validates. Exit 0, or 2 with what is wrong.

/** The JSON Schema this installed copy ships (lib/cli and dist/cli both sit two levels under the package root). */
const PACKAGE_SCHEMA = fileURLToPath(new URL("../../public/rubric-schema.json", import.meta.url));
/** What the review eval reads when no --document is given. */
const PLACEHOLDER_DOCUMENT = "document.md";

/** `to` relative to the folder `from`, with forward slashes and a leading ./ so editors read it as a path. */
function relativePath(from: string, to: string): string {
  const relative = path.relative(from, to).split(path.sep).join("/");
  return relative.startsWith("../") ? relative : `./${relative}`;
}

export async function importCommand(input: {
  file: string;
  options: { output?: string; document?: string };
  io: CliIo;
}): Promise<number> {
  const { file, options, io } = input;
  const fail = (lines: string[]) => {
    for (const line of lines) io.stderr.write(`${file}: ${line}\n`);
    return 2;
  };
  const read = await readBoundedFile(path.resolve(io.cwd, file));
  if (!read.ok) return fail([`cannot read the file: ${read.message}`]);
  const parsed = parseRubricSetJson(read.text);
  if (!parsed.ok) return fail(parsed.issues);

  // Paths in a suite are relative to the suite file: to the output's folder, or to here for stdout.
  const suiteDir =
    options.output === undefined ? io.cwd : path.dirname(path.resolve(io.cwd, options.output));
  let document = PLACEHOLDER_DOCUMENT;
  if (options.document !== undefined) {
    const found = await stat(path.resolve(io.cwd, options.document)).catch(
      (error: NodeJS.ErrnoException) => error,
    );
    if (found instanceof Error) {
      io.stderr.write(
        `--document ${options.document}: ${found.code === "ENOENT" ? "file not found" : found.message}; give the document the review eval should grade\n`,
      );
      return 2;
    }
    if (!found.isFile()) {
      io.stderr.write(
        `--document ${options.document}: not a file; give the document the review eval should grade\n`,
      );
      return 2;
    }
    document = relativePath(suiteDir, path.resolve(io.cwd, options.document));
  }
  // A modeline editors resolve offline: this package's own copy of the schema, relative to the suite file.
  const schema = existsSync(PACKAGE_SCHEMA) ? relativePath(suiteDir, PACKAGE_SCHEMA) : undefined;
  const suite = rubricSetToSuiteYaml({
    rubric: parsed.value,
    document,
    source: path.basename(file).replace(/[\r\n]+/g, " "),
    ...(schema ? { schema } : {}),
  });
  if (!suite.ok) return fail(suite.issues);
  const written = suite.text.endsWith("\n") ? suite.text : `${suite.text}\n`;
  const target = options.output ?? "suite.yaml";
  const loaded = loadSuite({ text: written, file: target });
  // Located in the file the person gave, by JSON path: the YAML text was never theirs to read.
  const located = (issue: ConfigIssue) => {
    const where = rubricSetPathOf(issue.path, parsed.value.id);
    const label = issue.severity === "warning" ? "warning: " : "";
    return where === undefined
      ? `the suite import writes: ${label}${issue.message}`
      : `${where}: ${label}${issue.message}`;
  };
  if (!loaded.ok) return fail(loaded.issues.map(located));
  for (const warning of loaded.warnings) io.stderr.write(`${file}: ${located(warning)}\n`);
  // Without --document the eval reads a placeholder: say plainly what to add, unless it is there.
  const missing =
    options.document === undefined && !existsSync(path.join(suiteDir, PLACEHOLDER_DOCUMENT));
  const todo = missing
    ? `no --document given: the review eval reads "${PLACEHOLDER_DOCUMENT}" next to the suite, which does not exist yet; create it, or set the eval's document: to the file to review (or rerun import with --document FILE)\n`
    : "";
  if (options.output === undefined) {
    io.stdout.write(written);
    io.stderr.write(todo);
    return 0;
  }
  const out = path.resolve(io.cwd, options.output);
  await mkdir(path.dirname(out), { recursive: true });
  await writeFile(out, written);
  io.stderr.write(
    `wrote ${options.output}: rubric "${parsed.value.id}" with ${parsed.value.categories.length} categories; review ${document} with rubric-studio review --config ${options.output}\n`,
  );
  io.stderr.write(todo);
  return 0;
}
