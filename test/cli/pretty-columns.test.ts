import { describe, expect, it } from "vitest";
import { makeWorkspace, startFakeJudge, yaml } from "./cli-harness";

// A new user's walk: `rubric-studio eval --config examples/rubric-eval.yaml | cat`. The pretty
// report is written as results come; its name column grew with the names seen so far, so the
// first result's score stood 3 characters left of the rows below it. The names every cell will
// have are known before the run (fixed responses, matrix cells): the column is as wide as the
// widest from the first line.

// The score is right-aligned: where it ends, the threshold begins.
const scoreColumn = (line: string) => line.indexOf("  threshold ");

describe("the pretty report's columns", () => {
  it("line up from the first result, names of matrix cells included", async ({
    onTestFinished,
  }) => {
    const ws = await makeWorkspace(onTestFinished);
    const judge = await startFakeJudge(onTestFinished, {
      respond: () => ({ verdict: { reasoning: "fine", score: 0.9 } }),
    });
    await ws.write(
      "suite.yaml",
      yaml(
        "judge: { model: claude-haiku-4-5 }",
        "evals:",
        "  - name: short",
        '    response: "Refunds take 5 days."',
        '    rubric: "States how long a refund takes."',
        "  - name: a longer name than the first",
        '    response: "Refunds take 5 days."',
        '    rubric: "States how long a refund takes (2)."',
        "  - name: across judges",
        '    response: "Refunds take 5 days."',
        "    rubric: { preset: conciseness, scale: letter }",
        "    matrix: { models: [claude-sonnet-4-6, claude-haiku-4-5] }",
      ),
    );
    const run = await ws.cli(["eval", "--config", "suite.yaml", "--concurrency", "1"], judge.env);
    expect(run.code, run.stderr).toBe(0);
    const rows = run.stdout.split("\n").filter((line) => /^✓ PASS /.test(line));
    expect(rows).toHaveLength(4);
    const columns = rows.map(scoreColumn);
    expect(new Set(columns).size, rows.join("\n")).toBe(1);
    // And the cost after the threshold: a letter's "threshold C" is as wide as "threshold 0.70".
    const costColumns = rows.map((line) => line.indexOf("  $"));
    expect(new Set(costColumns).size, rows.join("\n")).toBe(1);
  });
});

// A walk's finding: with a likert 0–100 rubric ("100.0/100", "threshold 95.0/100") among unit,
// likert 1–5, letter and boolean ones, and a deferred eval, the score, threshold and cost columns
// moved from line to line, on eval's output and on `report RUN_ID`'s alike.
describe("the pretty report's columns over every scale", () => {
  it("line up, a deferred eval's line included", async ({ onTestFinished }) => {
    const ws = await makeWorkspace(onTestFinished);
    const judge = await startFakeJudge(onTestFinished, {
      respond: () => ({ verdict: { reasoning: "fine", score: 1 } }),
    });
    const evalOf = (name: string, scale: string, threshold: string) => [
      `  - name: ${name}`,
      '    response: "Refunds take 5 days."',
      "    rubric:",
      `      scale: ${scale}`,
      `      threshold: ${threshold}`,
      "      criteria:",
      `        - { name: states, description: "States how long a refund takes (${name})." }`,
    ];
    await ws.write(
      "scales.yaml",
      yaml(
        "providers:",
        '  nokey: { type: openai, base_url: "http://127.0.0.1:9/v1", api_key_env: RS_TEST_UNSET_KEY }',
        "evals:",
        ...evalOf("unit", "unit", "0.7"),
        ...evalOf("likert five", "{ likert: { min: 1, max: 5 } }", "0.6"),
        ...evalOf("letter", "letter", "0.6"),
        ...evalOf("boolean", "boolean", "0.5"),
        ...evalOf("likert hundred", "{ likert: { min: 0, max: 100 } }", "0.95"),
        ...evalOf("keyless", "unit", "0.7"),
        '    matrix: { models: ["nokey:small"] }',
      ),
    );
    const run = await ws.cli(["eval", "--config", "scales.yaml", "--concurrency", "1"], judge.env);
    expect(run.code, run.stderr).toBe(0);
    const rows = run.stdout
      .split("\n")
      .filter((line) => /^\S (PASS|FAIL|ERROR|DEFER|SKIP) /.test(line));
    expect(rows).toHaveLength(6);
    expect(rows.some((line) => line.includes("100.0/100"))).toBe(true);
    const at = (pattern: string) => new Set(rows.map((line) => line.indexOf(pattern)));
    expect(at("  threshold ").size, rows.join("\n")).toBe(1);
    expect(
      new Set(rows.map((line) => line.search(/ {2}(\$|unpriced)/))).size,
      rows.join("\n"),
    ).toBe(1);
  });
});
