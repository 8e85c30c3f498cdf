import { describe, expect, test } from "vitest";
import { makeWorkspace, startFakeJudge } from "./cli-harness";

// `rubric-studio eval` against the stand-in's prompt-cache emulation: the
// rubric and each candidate are written once and read by the calls that share
// them (the scheduler warms a prefix before fanning out), and a prefix that
// should have been cached and was not is one warning on stderr.

const ANCHORS = Array.from(
  { length: 6 },
  (_, i) =>
    `          - { response: "Anchor ${i}: ${"the scheduler hands each lease to the next worker within the budget. ".repeat(6)}", score: ${(i / 5).toFixed(1)} }`,
);
const SUITE = [
  "judge: { model: claude-sonnet-4-5 }",
  "evals:",
  ...["one", "two"].flatMap((name) => [
    `  - name: answer ${name}`,
    `    response: "Answer ${name}: ${"the queue drains in order. ".repeat(30)}"`,
    "    rubric:",
    "      criteria:",
    ...["correct", "complete", "clear"].flatMap((criterion) => [
      `        - name: ${criterion}`,
      `          description: "Is ${criterion}."`,
      "          examples:",
      ...ANCHORS.map((a) => `  ${a}`),
    ]),
  ]),
  "",
].join("\n");

describe.concurrent("the prompt cache through the CLI", () => {
  test("each shared prefix is written once and read by every call after it; no warning", async ({
    onTestFinished,
  }) => {
    const ws = await makeWorkspace(onTestFinished);
    const judge = await startFakeJudge(onTestFinished, {
      promptCache: { minTokens: 1024 },
      latencyMs: 20,
    });
    await ws.write("suite.yaml", SUITE);
    const run = await ws.cli(
      [
        "eval",
        "--config",
        "suite.yaml",
        "--reporter",
        "json",
        "--output",
        "report.json",
        "--concurrency",
        "8",
      ],
      judge.env,
    );
    expect(run.code).toBe(0);
    expect(run.stderr).not.toContain("warning:");
    const report = await ws.readReport("report.json");
    expect(report.summary.judgeCalls).toBe(6);
    // One write of the rubric, one of each candidate; the other four calls only read.
    const calls = report.results.flatMap((r) => r.calls);
    expect(calls.filter((c) => c.usage.cacheWrite > 0)).toHaveLength(2);
    expect(calls.filter((c) => c.usage.cacheRead > 0 && c.usage.cacheWrite === 0)).toHaveLength(4);
    expect(report.summary.usage.cacheRead).toBeGreaterThan(4 * report.summary.usage.input);
  });

  test("a prefix the API never caches is said once, whatever the number of calls", async ({
    onTestFinished,
  }) => {
    const ws = await makeWorkspace(onTestFinished);
    const judge = await startFakeJudge(onTestFinished, { promptCache: { minTokens: 1_000_000 } });
    await ws.write("suite.yaml", SUITE);
    const run = await ws.cli(["eval", "--config", "suite.yaml"], judge.env);
    expect(run.code).toBe(0);
    expect(
      run.stderr.match(/warning: prompt cache: claude-sonnet-4-5 neither wrote nor read a prefix/g),
    ).toHaveLength(1);
  });
});
