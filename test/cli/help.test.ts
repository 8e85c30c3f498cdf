import { describe, expect, test } from "vitest";
import { makeWorkspace } from "./cli-harness";

// `--help` is the manual a user reaches first: every option of `eval` must be
// in it, with the exit codes a CI author gates on.

const EVAL_OPTIONS = [
  "--config",
  "--explain",
  "--reporter",
  "--output",
  "--max-cost",
  "--concurrency",
  "--timeout",
  "--filter",
  "--no-color",
  "--help",
];

describe.concurrent("rubric-studio --help", () => {
  test("eval --help names every option and the exit codes, and exits 0", async ({
    onTestFinished,
  }) => {
    const ws = await makeWorkspace(onTestFinished);
    const run = await ws.cli(["eval", "--help"]);

    expect(run.code).toBe(0);
    expect(run.stderr).toBe("");
    expect(run.stdout).toMatch(/^Usage: rubric-studio eval \[options\]/);
    for (const option of EVAL_OPTIONS)
      expect(run.stdout, option).toMatch(new RegExp(`^\\s+(-\\w, )?${option}\\b`, "m"));
    // Every reporter is named where --reporter is described.
    for (const name of [
      "pretty",
      "json",
      "junit",
      "md",
      "html",
      "sarif",
      "gitlab",
      "ndjson",
      "tap",
    ])
      expect(run.stdout).toContain(name);
    expect(run.stdout).toMatch(/Exit codes: 0 .*, 1 .*, 2 /);
    expect(run.stdout).toMatch(/ANTHROPIC_API_KEY/);
    // What a keyless run really prints (hwalk8): deferred, not "passed with a note".
    const flat = run.stdout.replace(/\s+/g, " ");
    expect(flat).not.toContain("passed with a note");
    expect(flat).toContain("reported deferred, not passed");
    expect(flat).toMatch(/Exit codes: 0 [^]*, 1 [^]*regressed against --baseline[^]*, 2 /);
    expect(flat).toContain("case-insensitive");
  });

  test("the top-level --help lists the commands and exits 0", async ({ onTestFinished }) => {
    const ws = await makeWorkspace(onTestFinished);
    const run = await ws.cli(["--help"]);

    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^\s+validate \[options\]/m);
    expect(run.stdout).toMatch(/^\s+eval \[options\]/m);
    // Not Claude only: the CLI grades with OpenAI-compatible judges too (hwalk8).
    expect(run.stdout.replace(/\s+/g, " ")).toContain("OpenAI-compatible");
  });
});
