import { describe, expect, test } from "vitest";
import { candidateOf, makeWorkspace, startFakeJudge, yaml } from "./cli-harness";

// `rubric-studio eval` as a CI job sees it: the exit code gates the build, the
// pretty summary explains it, and the report records it.

const SUITE = yaml(
  "judge: { model: claude-haiku-4-5 }",
  "evals:",
  "  - name: billing total",
  '    response: "Invoice 42 totaled $120.00."',
  '    rubric: "States the invoice total."',
  "  - name: billing tax",
  '    response: "The tax on invoice 42 was $20.00."',
  "    rubric:",
  "      threshold: 0.7",
  "      criteria:",
  "        - { name: states the tax, description: Names the tax amount. }",
  "        - { name: polite, description: Is polite. }",
  "  - name: weather in paris",
  '    response: "It is 18C and clear in Paris."',
  '    rubric: "Gives the temperature."',
);

/** Replies 0.9 to every candidate but the one containing `weak`, which gets 0.3. */
function scoreUnless(weak: string) {
  return (request: { user: string }) => ({
    verdict: candidateOf(request).includes(weak)
      ? { reasoning: "misses the point", score: 0.3 }
      : { reasoning: "meets the rubric", score: 0.9 },
  });
}

describe.concurrent("rubric-studio eval", () => {
  test("every eval passes: exit 0, each shown PASS with its score", async ({ onTestFinished }) => {
    const ws = await makeWorkspace(onTestFinished);
    const judge = await startFakeJudge(onTestFinished, { respond: scoreUnless("no weak eval") });
    await ws.write("suite.yaml", SUITE);
    const run = await ws.cli(["eval", "--config", "suite.yaml"], judge.env);

    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/Grading 3 evals \(3 cells\): 4 judge calls, projected ~\$/);
    for (const name of ["billing total", "billing tax", "weather in paris"]) {
      expect(run.stdout).toMatch(new RegExp(`✓ PASS +${name} +0\\.90 +threshold 0\\.70`));
    }
    expect(run.stdout).toMatch(/3 cells: 3 passed, 0 failed, 0 deferred, 0 judge errors/);
    expect(judge.api.requests).toHaveLength(4);
  });

  test("one eval below its threshold: exit 1, that eval FAIL with the reason, the others PASS", async ({
    onTestFinished,
  }) => {
    const ws = await makeWorkspace(onTestFinished);
    const judge = await startFakeJudge(onTestFinished, { respond: scoreUnless("18C") });
    await ws.write("suite.yaml", SUITE);
    const run = await ws.cli(
      ["eval", "--config", "suite.yaml", "--reporter", "pretty,json", "--output", "report.json"],
      judge.env,
    );

    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/✗ FAIL +weather in paris +0\.30 +threshold 0\.70/);
    expect(run.stdout).toMatch(/score 0\.30 < threshold 0\.70/);
    expect(run.stdout).toMatch(/✓ PASS +billing total/);
    expect(run.stdout).toMatch(/3 cells: 2 passed, 1 failed/);
    const report = await ws.readReport("report.json");
    expect(report.results.map((r) => [r.name, r.status, r.score])).toEqual([
      ["billing total", "passed", 0.9],
      ["billing tax", "passed", 0.9],
      ["weather in paris", "failed", 0.3],
    ]);
  });

  test("no ANTHROPIC_API_KEY: every eval defers with a note, exit 0, and no request is sent", async ({
    onTestFinished,
  }) => {
    const ws = await makeWorkspace(onTestFinished);
    const judge = await startFakeJudge(onTestFinished);
    await ws.write("suite.yaml", SUITE);
    const env = { ANTHROPIC_BASE_URL: judge.api.url, ANTHROPIC_API_KEY: "" };
    const run = await ws.cli(
      ["eval", "--config", "suite.yaml", "--reporter", "pretty,json", "--output", "report.json"],
      env,
    );

    expect(run.code).toBe(0);
    expect(judge.api.requests).toHaveLength(0);
    for (const name of ["billing total", "billing tax", "weather in paris"])
      expect(run.stdout).toMatch(new RegExp(`○ DEFER +${name} `));
    expect(run.stdout.match(/deferred: .*ANTHROPIC_API_KEY/g)).toHaveLength(3);
    expect(run.stdout).toMatch(/3 cells: 0 passed, 0 failed, 3 deferred/);
    const report = await ws.readReport("report.json");
    for (const result of report.results) {
      expect(result.status).toBe("deferred");
      expect(result.note).toMatch(/ANTHROPIC_API_KEY/);
      expect(result.score).toBeNull();
    }
  });

  test.for([
    {
      what: "an unknown reporter",
      args: ["--reporter", "pretty,xml"],
      says: /unknown reporter "xml"; valid choices: pretty, json, junit/,
    },
    {
      what: "--concurrency 0",
      args: ["--concurrency", "0"],
      says: /--concurrency must be a whole number of at least 1/,
    },
    { what: "an unknown option", args: ["--colour"], says: /unknown option '--colour'/ },
    {
      what: "a negative --max-cost",
      args: ["--max-cost", "-1"],
      says: /--max-cost must be a number of at least 0/,
    },
    {
      what: "--concurrency past its ceiling",
      args: ["--concurrency", "99999999"],
      says: /--concurrency must be at most 1,000/,
    },
    {
      what: "--repeat past its ceiling",
      args: ["--repeat", "1000000"],
      says: /--repeat must be at most 100/,
    },
  ])(
    "a usage error ($what) exits 2, says what is wrong, and grades nothing",
    async ({ args, says }, { onTestFinished }) => {
      const ws = await makeWorkspace(onTestFinished);
      const judge = await startFakeJudge(onTestFinished);
      await ws.write("suite.yaml", SUITE);
      const run = await ws.cli(["eval", "--config", "suite.yaml", ...args], judge.env);

      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(says);
      expect(run.stdout).toBe("");
      expect(judge.api.requests).toHaveLength(0);
    },
  );

  test("--filter grades only the evals whose name matches", async ({ onTestFinished }) => {
    const ws = await makeWorkspace(onTestFinished);
    const judge = await startFakeJudge(onTestFinished);
    await ws.write("suite.yaml", SUITE);
    const run = await ws.cli(
      ["eval", "--config", "suite.yaml", "--filter", "^billing", "--reporter", "json"],
      judge.env,
    );

    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as { results: { name: string; status: string }[] };
    expect(report.results.map((r) => r.name)).toEqual(["billing total", "billing tax"]);
    expect(judge.api.requests.map(candidateOf).sort()).toEqual([
      "Invoice 42 totaled $120.00.",
      "The tax on invoice 42 was $20.00.",
      "The tax on invoice 42 was $20.00.",
    ]);
  });

  test("--filter that matches nothing is a usage error", async ({ onTestFinished }) => {
    const ws = await makeWorkspace(onTestFinished);
    const judge = await startFakeJudge(onTestFinished);
    await ws.write("suite.yaml", SUITE);
    const run = await ws.cli(["eval", "--config", "suite.yaml", "--filter", "^nothing"], judge.env);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--filter "\^nothing" matches no eval/);
  });

  test("an invalid suite exits 2 with its located issues, before any grading", async ({
    onTestFinished,
  }) => {
    const ws = await makeWorkspace(onTestFinished);
    const judge = await startFakeJudge(onTestFinished);
    await ws.write(
      "suite.yaml",
      yaml("evals:", "  - name: a", '    response: "hi"', '    rubric: "x"', "    threshold: 2"),
    );
    const run = await ws.cli(["eval", "--config", "suite.yaml"], judge.env);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^suite\.yaml:5:16: error: threshold must be between 0 and 1$/m);
    expect(judge.api.requests).toHaveLength(0);
  });
});
