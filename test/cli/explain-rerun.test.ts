import { readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { makeWorkspace } from "./cli-harness";

// The rerun figure of `eval --explain` says what a rerun costs the way it will
// run: the judge cache lives in the run store, so a run without --store (or
// DATABASE_URL) keeps no verdicts and its rerun pays again.

const EXAMPLE = path.join(import.meta.dirname, "../../examples/rubric-eval.yaml");
const totals = (stdout: string) => {
  const cost =
    /^Cost: naive ~\$[\d.]+, with the prompt cache ~\$([\d.]+) .*unchanged rerun ~\$([\d.]+)(.*)$/m.exec(
      stdout,
    );
  expect(cost, stdout).not.toBeNull();
  return { withCache: cost![1], rerun: cost![2], rest: cost![3]! };
};

describe.concurrent("eval --explain's unchanged rerun", () => {
  test("without the store: the full cost, and the hint that --store keeps verdicts", async ({
    onTestFinished,
  }) => {
    const ws = await makeWorkspace(onTestFinished);
    await ws.write("suite.yaml", await readFile(EXAMPLE, "utf8"));
    const explain = await ws.cli(["eval", "--config", "suite.yaml", "--explain"]);
    const { withCache, rerun, rest } = totals(explain.stdout);
    expect(rerun).toBe(withCache);
    expect(Number(rerun)).toBeGreaterThan(0);
    expect(rest).toContain("--store keeps the verdicts");
    expect(explain.stdout).toContain(
      "without --store (or DATABASE_URL) no verdict is kept for the judge cache (judge errors are never cached)",
    );
  });

  test("with --store or DATABASE_URL: ~$0 (the judge cache), judge errors paid again", async ({
    onTestFinished,
  }) => {
    const ws = await makeWorkspace(onTestFinished);
    await ws.write("suite.yaml", await readFile(EXAMPLE, "utf8"));
    for (const [args, env] of [
      [["--store"], {}],
      [[], { DATABASE_URL: "postgres://127.0.0.1:1/none" }],
    ] as const) {
      const explain = await ws.cli(["eval", "--config", "suite.yaml", "--explain", ...args], env);
      const { rerun, rest } = totals(explain.stdout);
      expect(rerun).toBe("0");
      expect(rest).not.toContain("--store keeps");
      expect(explain.stdout).toContain(
        "judge errors are not cached, so a rerun pays for them again",
      );
    }
  });

  test("--no-cache pays again in full, even with the store", async ({ onTestFinished }) => {
    const ws = await makeWorkspace(onTestFinished);
    await ws.write("suite.yaml", await readFile(EXAMPLE, "utf8"));
    const explain = await ws.cli([
      "eval",
      "--config",
      "suite.yaml",
      "--explain",
      "--store",
      "--no-cache",
    ]);
    const { withCache, rerun } = totals(explain.stdout);
    expect(rerun).toBe(withCache);
    expect(explain.stdout).toContain("--no-cache asks the judge afresh");
  });
});
