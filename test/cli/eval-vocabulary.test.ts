import { readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { makeWorkspace, startFakeJudge } from "./cli-harness";

// One vocabulary for what the CLI counts: "evals" are the suite's evals, "cells"
// are what is graded (a matrix or a dataset makes several cells of one eval).
// The README's example suite has 5 evals, one of them over a 2-model matrix.

const EXAMPLE = path.join(import.meta.dirname, "../../examples/rubric-eval.yaml");

describe.concurrent("evals and cells, as the CLI counts them on the example suite", () => {
  test("validate, --explain and eval's progress line name 5 evals and 6 cells", async ({
    onTestFinished,
  }) => {
    const ws = await makeWorkspace(onTestFinished);
    await ws.write("suite.yaml", await readFile(EXAMPLE, "utf8"));

    const validate = await ws.cli(["validate", "--config", "suite.yaml"]);
    expect(validate.stdout).toContain("suite.yaml: valid (5 evals, 6 cells)");

    const explain = await ws.cli(["eval", "--config", "suite.yaml", "--explain"]);
    expect(explain.stdout).toMatch(/^Plan: 5 evals, 6 cells, 15 judge calls, /m);

    const judge = await startFakeJudge(onTestFinished, {
      respond: () => ({
        verdict: { reasoning: "meets the rubric", score: 0.9, evidence: "Invoice" },
      }),
    });
    const run = await ws.cli(
      ["eval", "--config", "suite.yaml", "--reporter", "pretty,md,html", "--output", "out"],
      judge.env,
    );
    expect(run.stderr).toMatch(/^Grading 5 evals \(6 cells\): 15 judge calls, projected ~\$/m);
    expect(run.stdout).toMatch(/^6 cells: \d+ passed/m);
    expect(run.stdout).not.toMatch(/6 evals/);
    expect(await ws.read("out/report.md")).toMatch(/\*\*6 cells:\*\*/);
    expect(await ws.read("out/report.html")).toMatch(/<b>6<\/b>cells</);
  });
});
