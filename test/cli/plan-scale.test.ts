import { open } from "node:fs/promises";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { makeWorkspace, yaml } from "./cli-harness";
import { measuredCli, writeLines } from "../support/measure-cli";

// A suite run from a file plans a million judge calls in flat memory: its
// JSONL or CSV dataset is streamed (checked and counted in one pass, read again
// as cells are planned) and `eval --explain` prices the cells one at a time.
// The bounds are a file's (RUBRIC_STUDIO_MAX_CELLS raises them), not the editor's.

const SUITE = (file: string) =>
  yaml(
    "datasets:",
    "  big:",
    `    file: ${file}`,
    "evals:",
    "  - name: answers",
    "    candidates: { dataset: big }",
    "    rubric:",
    "      criteria:",
    '        - { name: correct, description: "The answer is correct." }',
    '        - { name: concise, description: "The answer is concise." }',
    '        - { name: polite, description: "The answer is polite." }',
  );

const jsonl = (i: number) =>
  JSON.stringify({ id: `q${i}`, input: `Question ${i}?`, expected_output: `Answer number ${i}.` });

/** No key, no database: the plan is priced as if keys were set, and nothing is stored. */
const measured = (args: string[], cwd: string) =>
  measuredCli({
    args,
    cwd,
    env: { ...process.env, ANTHROPIC_API_KEY: undefined, DATABASE_URL: undefined },
  });

describe("plans of a million judge calls from a file", () => {
  test("eval --explain of 333,334 JSONL items × 3 criteria prints the totals with a peak RSS under 300 MB", async ({
    onTestFinished,
  }) => {
    const ws = await makeWorkspace(onTestFinished);
    await writeLines(path.join(ws.dir, "items.jsonl"), 333_334, jsonl);
    await ws.write("suite.yaml", SUITE("items.jsonl"));
    const run = await measured(["eval", "--explain", "--config", "suite.yaml"], ws.dir);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("Plan: 1 eval, 333,334 cells, 1,000,002 judge calls");
    // The first cells are listed, the rest summed.
    expect(run.stdout).toContain("answers [item=q1]");
    expect(run.stdout).toContain("… and 332,334 more cells like these");
    expect(run.stdout).not.toContain("answers [item=q333334]");
    expect(run.peakMb).toBeGreaterThan(0);
    expect(run.peakMb).toBeLessThan(300);
  }, 300_000);

  test("a bad line deep in a big JSONL or CSV file is an error at its line", async ({
    onTestFinished,
  }) => {
    const ws = await makeWorkspace(onTestFinished);
    await writeLines(path.join(ws.dir, "bad.jsonl"), 200_000, (i) =>
      i === 187_654 ? '{"id": "q187654", "expected_output": oops}' : jsonl(i),
    );
    await ws.write("jsonl.yaml", SUITE("bad.jsonl"));
    const fromJsonl = await ws.cli(["validate", "--config", "jsonl.yaml"]);
    expect(fromJsonl.stderr).toMatch(
      /^bad\.jsonl:187654:\d+: error: dataset "big": not valid JSON/m,
    );
    expect(fromJsonl.code).toBe(2);
    await writeLines(path.join(ws.dir, "bad.csv"), 150_001, (i) =>
      i === 1 ? "id,expected_output" : i === 123_457 ? `q${i},"never closed` : `q${i},Answer ${i}.`,
    );
    await ws.write("csv.yaml", SUITE("bad.csv"));
    const fromCsv = await ws.cli(["validate", "--config", "csv.yaml"]);
    expect(fromCsv.stderr).toMatch(
      /^bad\.csv:123457:\d+: error: dataset "big": a quoted field that starts in this record is never closed/m,
    );
    expect(fromCsv.code).toBe(2);
    // A line with no end (a sparse file: 80 MiB on paper) is refused at its line, never held whole.
    for (const name of ["endless.jsonl", "endless.csv"]) {
      await ws.write(name, name.endsWith(".csv") ? "id,expected_output\n" : "");
      const handle = await open(path.join(ws.dir, name), "r+");
      await handle.truncate(80 * 1024 * 1024);
      await handle.close();
      await ws.write(`${name}.yaml`, SUITE(name));
      const endless = await ws.cli(["validate", "--config", `${name}.yaml`]);
      expect(endless.stderr).toMatch(
        name.endsWith(".csv")
          ? /^endless\.csv:2:1: error: dataset "big": the record is longer than a record of a dataset file may be \(64 MiB\)$/m
          : /^endless\.jsonl:1:1: error: dataset "big": the line is longer than 67,108,864 bytes, the most a line of a dataset file may hold$/m,
      );
      expect(endless.code).toBe(2);
    }
  }, 120_000);

  test("the CLI accepts a 20,000-item file (the editor's bound is 10,000); RUBRIC_STUDIO_MAX_CELLS sets a file's bound and the error names it", async ({
    onTestFinished,
  }) => {
    const ws = await makeWorkspace(onTestFinished);
    await writeLines(path.join(ws.dir, "items.jsonl"), 20_000, jsonl);
    await ws.write("suite.yaml", SUITE("items.jsonl"));
    const accepted = await ws.cli(["validate", "--config", "suite.yaml"]);
    expect(accepted.stderr).toBe("");
    expect(accepted.stdout).toBe("suite.yaml: valid (1 eval, 20,000 cells)\n");
    const bounded = await ws.cli(["validate", "--config", "suite.yaml"], {
      RUBRIC_STUDIO_MAX_CELLS: "15000",
    });
    expect(bounded.stderr).toContain(
      "a dataset has at most 15,000 items; this is item 15,001 (set RUBRIC_STUDIO_MAX_CELLS=N to raise it)",
    );
    expect(bounded.code).toBe(2);
    // Three criteria each: 60,000 judge calls, over a bound of 50,000.
    const calls = await ws.cli(["validate", "--config", "suite.yaml"], {
      RUBRIC_STUDIO_MAX_JUDGE_CALLS: "50000",
    });
    expect(calls.stderr).toContain(
      'eval "answers" plans 20,000 cells × 3 criteria = 60,000 judge calls; a suite may plan at most 50,000 judge calls (set RUBRIC_STUDIO_MAX_JUDGE_CALLS=N to raise it)',
    );
    expect(calls.code).toBe(2);
  }, 120_000);
});
