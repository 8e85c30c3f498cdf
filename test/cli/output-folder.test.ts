import { mkdir, readdir } from "node:fs/promises";
import { describe, expect, test } from "vitest";
import { makeWorkspace, startFakeJudge, yaml } from "./cli-harness";

// `--output out/` with one machine format: a trailing slash, or a folder that exists, means a
// folder, and the report goes in it as report.<ext> (as with several formats), never into a
// file named `out`.

const SUITE = yaml(
  "judge: { model: claude-haiku-4-5 }",
  "evals:",
  "  - name: answers the question",
  '    response: "Invoice 42 totaled $120.00."',
  '    rubric: "States the total."',
);

describe("--output naming a folder", () => {
  test("out/ (new) and an existing folder each get report.<ext>", async ({ onTestFinished }) => {
    const ws = await makeWorkspace(onTestFinished);
    const judge = await startFakeJudge(onTestFinished, {
      respond: () => ({ verdict: { reasoning: "states the total", score: 1 } }),
    });
    await ws.write("suite.yaml", SUITE);
    const run = await ws.cli(
      ["eval", "--config", "suite.yaml", "--reporter", "ndjson", "--output", "out/"],
      judge.env,
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/^wrote ndjson report to out\/report\.ndjson$/m);
    expect(await readdir(`${ws.dir}/out`)).toEqual(["report.ndjson"]);
    expect(await ws.read("out/report.ndjson")).toContain('"answers the question"');

    // A folder that is there already, named without the slash; a whole-report format too.
    await mkdir(`${ws.dir}/reports`);
    const again = await ws.cli(
      ["eval", "--config", "suite.yaml", "--reporter", "json", "--output", "reports"],
      judge.env,
    );
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/^wrote json report to reports\/report\.json$/m);
    expect(await readdir(`${ws.dir}/reports`)).toEqual(["report.json"]);
  }, 60_000);

  test("--output with only pretty (the default) is a usage error, not a run that writes nothing", async ({
    onTestFinished,
  }) => {
    const ws = await makeWorkspace(onTestFinished);
    const judge = await startFakeJudge(onTestFinished, {
      respond: () => ({ verdict: { reasoning: "states the total", score: 1 } }),
    });
    await ws.write("suite.yaml", SUITE);
    const run = await ws.cli(["eval", "--config", "suite.yaml", "--output", "out/"], judge.env);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      "error: --output out/ writes no file with --reporter pretty (the default), which prints to the terminal: add a format that is written to a file, e.g. --reporter pretty,ndjson",
    );
    expect(judge.api.requests).toHaveLength(0);
    // review writes its own JSON file with --output, and takes no --reporter.
    const help = await ws.cli(["review", "--help"], judge.env);
    expect(help.stdout).toContain("--output <file>");
  }, 60_000);
});
