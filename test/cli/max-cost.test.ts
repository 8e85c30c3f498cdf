import { expect, test } from "vitest";
import { makeWorkspace, invoiceSuite, startFakeJudge, yaml } from "./cli-harness";

// --max-cost: a run stops scheduling judge calls before it would pass the
// budget. What it could not grade reads "skipped (budget)", never a pass, and
// fails the run, so a budget cut cannot turn a CI gate green.

const EVALS = 6;
const SUITE = invoiceSuite(EVALS);

test("--max-cost: evals past the budget are skipped (budget), none passes ungraded, exit 1, fewer requests", async ({
  onTestFinished,
}) => {
  const ws = await makeWorkspace(onTestFinished);
  const judge = await startFakeJudge(onTestFinished);
  await ws.write("suite.yaml", SUITE);

  // The plan says what a full run would cost; a budget of a third of it cannot cover every call.
  const explain = await ws.cli(["eval", "--explain", "--config", "suite.yaml"], judge.env);
  const plan = /^Plan: .*, (\d+) judge calls, .* projected cost ~\$(\d+\.\d+)$/m.exec(
    explain.stdout,
  );
  expect(plan, explain.stdout).not.toBeNull();
  const plannedCalls = Number(plan![1]);
  expect(plannedCalls).toBe(EVALS);
  const projectedUsd = Number(plan![2]);
  const budget = (projectedUsd / 3).toFixed(4);

  const run = await ws.cli(
    [
      "eval",
      "--config",
      "suite.yaml",
      "--max-cost",
      budget,
      "--reporter",
      "pretty,json",
      "--output",
      "report.json",
    ],
    judge.env,
  );
  expect(run.code).toBe(1);
  expect(run.stderr).toMatch(
    /^Grading \d+ evals? \(6 cells\): 6 judge calls, projected ~\$[\d.]+ \(budget \$[\d.]+\)$/m,
  );

  const report = await ws.readReport("report.json");
  const skipped = report.results.filter((r) => r.status === "skipped");
  const passed = report.results.filter((r) => r.status === "passed");
  expect(skipped.length).toBeGreaterThan(0);
  expect(passed.length + skipped.length).toBe(EVALS);
  for (const result of skipped) {
    expect(result.score).toBeNull();
    expect(result.judgeCalls).toBe(0);
    expect(result.skipKind).toBe("budget");
    expect(result.reason).toBe(
      "skipped (budget): the --max-cost budget was reached before all of this eval's judge calls could be made",
    );
  }
  for (const result of passed) expect(result.judgeCalls).toBe(1);
  expect(report.summary.skipped).toBe(skipped.length);
  expect(report.budget?.maxCostUsd).toBe(Number(budget));
  expect(report.summary.costUsd).toBeLessThanOrEqual(Number(budget));

  // The stand-in saw only the calls that were made: fewer than planned.
  expect(judge.api.requests.length).toBe(passed.length);
  expect(judge.api.requests.length).toBeLessThan(plannedCalls);

  expect(run.stdout.match(/↷ SKIP/g)).toHaveLength(skipped.length);
  expect(run.stdout).toMatch(new RegExp(`${skipped.length} skipped \\(budget\\)`));
  // The cause is said once per skipped eval, never "skipped (budget): skipped (budget): ...".
  expect(run.stdout.match(/skipped \(budget\): the --max-cost budget was reached/g)).toHaveLength(
    skipped.length,
  );
  expect(run.stdout).not.toMatch(/skipped \(budget\): skipped/);
});

test("--max-cost: a budget that fits the run (2.5× what it costs) runs all 9 evals at the default concurrency, exit 0", async ({
  onTestFinished,
}) => {
  const ws = await makeWorkspace(onTestFinished);
  // As a real judge answers: a short verdict (far fewer output tokens than the
  // 300 each call is estimated at) and the rubric read from the prompt cache.
  const judge = await startFakeJudge(onTestFinished, {
    respond: () => ({
      verdict: { reasoning: "ok", score: 1 },
      usage: { input_tokens: 50, cache_read_input_tokens: 1200, output_tokens: 40 },
    }),
    latencyMs: 20,
  });
  await ws.write(
    "suite.yaml",
    yaml(
      "judge: { model: claude-haiku-4-5 }",
      "evals:",
      ...Array.from({ length: 9 }, (_, i) => [
        `  - name: answer ${i + 1}`,
        `    response: "Invoice ${i + 1} totaled $${(i + 1) * 10}.00."`,
        '    rubric: "States the invoice total."',
      ]).flat(),
    ),
  );
  const args = ["eval", "--config", "suite.yaml", "--reporter", "json", "--output", "r.json"];
  const free = await ws.cli(args, judge.env);
  expect(free.code, free.stderr).toBe(0);
  const cost = (await ws.readReport("r.json")).summary.costUsd;
  expect(cost).toBeGreaterThan(0);

  const run = await ws.cli([...args, "--max-cost", (cost * 2.5).toFixed(6)], judge.env);
  expect(run.code, run.stderr).toBe(0);
  const report = await ws.readReport("r.json");
  expect(report.summary).toMatchObject({ passed: 9, skipped: 0 });
  expect(report.summary.costUsd).toBeCloseTo(cost, 8);
});
