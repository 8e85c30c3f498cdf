import { execFileSync } from "node:child_process";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { makeWorkspace, yaml, type Workspace } from "./cli-harness";

// Issue 21, item 5: a FIFO named as a dataset made `validate` hang forever;
// /dev/urandom took 1.17 GB and /dev/zero 630 MB. Every file the CLI reads is
// refused unless it is a regular file, before anything is read, with the
// path as the user wrote it. Through the real CLI, with a real FIFO.

const NOT_REGULAR = (kind: string) =>
  `it is ${kind}, not a regular file: only regular files are read`;

async function fifo(ws: Workspace, name: string): Promise<string> {
  await mkdir(path.dirname(path.join(ws.dir, name)), { recursive: true });
  execFileSync("mkfifo", [path.join(ws.dir, name)]);
  return name;
}

const datasetSuite = (file: string) =>
  yaml(
    "datasets:",
    "  support:",
    `    file: ${file}`,
    "    format: csv",
    "    columns: { expected_output: answer }",
    "evals:",
    "  - name: support answers",
    "    candidates: { dataset: support }",
    '    rubric: "Answers the question."',
  );

describe.concurrent("files that are not regular files", { timeout: 60_000 }, () => {
  test("a FIFO as a dataset file: validate refuses it at once, naming the file, and exits 2", async ({
    onTestFinished,
  }) => {
    const ws = await makeWorkspace(onTestFinished);
    await fifo(ws, "data/pipe.csv");
    await ws.write("suite.yaml", datasetSuite("data/pipe.csv"));
    const started = Date.now();
    const run = await ws.cli(["validate", "--config", "suite.yaml"]);
    expect(run.timedOut).toBe(false);
    expect(run.stderr).toContain(
      `suite.yaml:1:1: error: cannot read dataset "support" from data/pipe.csv: ${NOT_REGULAR("a FIFO (named pipe)")}`,
    );
    expect(run.code).toBe(2);
    expect(Date.now() - started).toBeLessThan(15_000);
  });

  test.for([
    ["/dev/zero", "a character device"],
    ["/dev/urandom", "a character device"],
    ["/tmp", "a directory"],
  ])(
    "%s as a dataset file is refused before it is read",
    async ([file, kind], { onTestFinished }) => {
      const ws = await makeWorkspace(onTestFinished);
      await ws.write("suite.yaml", datasetSuite(file!));
      const run = await ws.cli(["validate", "--config", "suite.yaml"]);
      expect(run.stderr).toContain(
        `cannot read dataset "support" from ${file}: ${NOT_REGULAR(kind!)}`,
      );
      expect(run.code).toBe(2);
    },
  );

  test("a FIFO as the suite, as a document, as a RubricSet to import: each refused with its path", async ({
    onTestFinished,
  }) => {
    const ws = await makeWorkspace(onTestFinished);
    await fifo(ws, "pipe.yaml");
    const suite = await ws.cli(["validate", "--config", "pipe.yaml"]);
    expect(suite.stderr).toContain(
      `pipe.yaml:1:1: error: cannot read the suite: ${NOT_REGULAR("a FIFO (named pipe)")}`,
    );
    expect(suite.code).toBe(2);

    await fifo(ws, "docs/prd.md");
    await ws.write(
      "review.yaml",
      yaml(
        "evals:",
        "  - name: prd review",
        "    document: { file: docs/prd.md }",
        '    rubric: "Is complete."',
      ),
    );
    const document = await ws.cli(["validate", "--config", "review.yaml"]);
    expect(document.stderr).toContain(
      `cannot read the document "docs/prd.md" (relative to the suite file): ${NOT_REGULAR("a FIFO (named pipe)")}`,
    );
    expect(document.code).toBe(2);

    await fifo(ws, "rubricset.json");
    const imported = await ws.cli(["import", "rubricset.json"]);
    expect(imported.stderr).toContain(
      `rubricset.json: cannot read the file: ${NOT_REGULAR("a FIFO (named pipe)")}`,
    );
    expect(imported.code).toBe(2);
    expect([suite, document, imported].map((r) => r.timedOut)).toEqual([false, false, false]);
  });
});
