import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import type { RubricSetConfig } from "../config/category-types";
import { formatIssue, loadSuite } from "../config/load-suite";
import { rubricSetToJson } from "../config/rubric-set-json";
import type { CliIo } from "./cli-io";
import { readBoundedFile, SUITE_FILE } from "./read-bounded-file";

// `rubric-studio export --config suite.yaml`: a category rubric of the suite
// as the Go package's RubricSet JSON (the reverse of `import`), for teams that
// grade with the Go package. The rubrics exported are those the suite's evals
// use; with several, --rubric picks one by its id. Exit 0, or 2 with why.

function categoryRubrics(evals: { rubric: { kind: string } }[]): RubricSetConfig[] {
  const byId = new Map<string, RubricSetConfig>();
  for (const evalConfig of evals) {
    const rubric = evalConfig.rubric as { kind: string; rubricSet?: RubricSetConfig };
    if (rubric.kind === "categories" && rubric.rubricSet && !byId.has(rubric.rubricSet.id))
      byId.set(rubric.rubricSet.id, rubric.rubricSet);
  }
  return [...byId.values()];
}

export async function exportCommand(input: {
  options: { config: string; rubric?: string; output?: string };
  io: CliIo;
}): Promise<number> {
  const { options, io } = input;
  const read = await readBoundedFile(path.resolve(io.cwd, options.config), SUITE_FILE);
  if (!read.ok) {
    io.stderr.write(`${options.config}:1:1: error: cannot read the suite: ${read.message}\n`);
    return 2;
  }
  const text = read.text;
  const loaded = loadSuite({ text, file: options.config });
  if (!loaded.ok) {
    for (const issue of loaded.issues) io.stderr.write(`${formatIssue(issue)}\n`);
    return 2;
  }
  const rubrics = categoryRubrics(loaded.value.evals);
  const ids = rubrics.map((r) => r.id).join(", ");
  if (rubrics.length === 0) {
    io.stderr.write(
      `error: ${options.config} has no eval with a category rubric (categories:) to export; only category rubrics have a RubricSet form\n`,
    );
    return 2;
  }
  const picked =
    options.rubric === undefined
      ? rubrics.length === 1
        ? rubrics[0]
        : undefined
      : rubrics.find((r) => r.id === options.rubric);
  if (!picked) {
    io.stderr.write(
      options.rubric === undefined
        ? `error: the suite's evals use ${rubrics.length} category rubrics; pick one with --rubric ID: ${ids}\n`
        : `error: no category rubric with id "${options.rubric}" in the suite's evals; their ids: ${ids}\n`,
    );
    return 2;
  }
  const json = `${JSON.stringify(rubricSetToJson(picked), null, 2)}\n`;
  if (options.output === undefined) {
    io.stdout.write(json);
    return 0;
  }
  const target = path.resolve(io.cwd, options.output);
  await mkdir(path.dirname(target), { recursive: true });
  await writeFile(target, json);
  io.stderr.write(
    `wrote RubricSet "${picked.id}" (${picked.categories.length} categories) to ${options.output}\n`,
  );
  return 0;
}
