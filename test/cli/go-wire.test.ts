import { readFile } from "node:fs/promises";
import { describe, expect, test } from "vitest";
import { parseRubricSetJson } from "../../lib/config/rubric-set-json";
import { checkGoJson, goStructs } from "../support/go-structs";
import { makeWorkspace, startFakeJudge, yaml } from "./cli-harness";

// The Go package's wire format both ways through the real CLI: `export` writes
// a YAML category rubric as RubricSet JSON whose field names, order and
// omitempty are the spec's own struct definitions; `report FILE` renders an
// EvaluationReport the Go package wrote with every reporter.

const JUDGE_TRUST = new URL("../../examples/judge-trust.yaml", import.meta.url);
const GO_FIXTURE = new URL("../fixtures/review/evaluation-report.json", import.meta.url);

/** An EvaluationReport as the Go package writes it (fields in struct order, omitempty left out). */
function goReport(input: {
  document: string;
  decision: "pass" | "conditional" | "fail" | "human_review";
  passed: boolean;
  scores: [string, "pass" | "partial" | "fail"][];
}) {
  const counts = { pass: 0, partial: 0, fail: 0 };
  for (const [, score] of input.scores) counts[score] += 1;
  return {
    metadata: {
      document: input.document,
      documentTitle: `${input.document} title`,
      generatedAt: "2026-03-01T10:00:00Z",
    },
    reviewType: "prd",
    judge: {
      model: "claude-sonnet-4-6",
      evaluated_at: "2026-03-01T10:00:00Z",
      latency: 2_500_000_000,
      tokens_used: { input_tokens: 1200, output_tokens: 300, total_tokens: 1500 },
    },
    rubricId: "prd",
    categories: input.scores.map(([category, score]) => ({
      category,
      score,
      reasoning: `${category} is ${score}`,
      evidence: [`quote from ${category}`],
    })),
    findings: input.passed
      ? []
      : [
          {
            id: "f1",
            category: input.scores[0]![0],
            severity: "high",
            title: "=cmd|' /C calc'!A0",
            description: "Missing metrics.",
            recommendation: "Add metrics.",
          },
        ],
    passCriteria: {
      minCategoriesPassing: "all_required",
      maxFindingsSeverity: { critical: 0, high: 0, medium: -1 },
    },
    decision: {
      status: input.decision,
      passed: input.passed,
      rationale: input.passed ? "All criteria met" : "1 high finding(s) exceed maximum of 0",
      findingCounts: {
        critical: 0,
        high: input.passed ? 0 : 1,
        medium: 0,
        low: 0,
        info: 0,
        total: input.passed ? 0 : 1,
      },
      categoryCounts: { ...counts, total: input.scores.length },
    },
    overallDecision: input.decision,
    nextSteps: {},
    summary: "Reviewed.",
  };
}

describe.concurrent("the Go wire format from the CLI", { timeout: 120_000 }, () => {
  test("the spec's structs are read (a check that cannot fail would prove nothing)", () => {
    const structs = goStructs();
    expect(structs.get("RubricSet")!.map((f) => f.json)).toEqual([
      "id",
      "name",
      "version",
      "description",
      "evaluationType",
      "passCriteria",
      "categories",
      "judgePromptTemplate",
      "metadata",
    ]);
    expect(
      checkGoJson(
        { id: "x", name: "n", version: "1", passCriteria: {}, categories: [], judgePrompt: "p" },
        "RubricSet",
      ),
    ).toEqual([
      "$.judgePrompt: not a field of RubricSet (its fields: id, name, version, description, evaluationType, passCriteria, categories, judgePromptTemplate, metadata)",
    ]);
    expect(
      checkGoJson(
        { name: "n", id: "x", version: "1", passCriteria: {}, categories: [] },
        "RubricSet",
      )[0],
    ).toMatch(/out of struct order/);
  });

  test("export: the README's category rubric as RubricSet JSON with the spec's field names, which import reads back to the same rubric", async ({
    onTestFinished,
  }) => {
    const ws = await makeWorkspace(onTestFinished);
    await ws.write("suite.yaml", await readFile(JUDGE_TRUST, "utf8"));
    const run = await ws.cli(["export", "--config", "suite.yaml", "--output", "out/prd.json"]);
    expect(run.code, run.stderr).toBe(0);
    const exported = JSON.parse(await ws.read("out/prd.json")) as Record<string, unknown>;
    expect(checkGoJson(exported, "RubricSet")).toEqual([]);
    expect(exported).toMatchObject({
      id: "prd",
      name: "PRD review",
      passCriteria: { minCategoriesPassing: expect.any(String) },
    });
    expect((exported.categories as unknown[]).length).toBeGreaterThan(1);
    expect(parseRubricSetJson(JSON.stringify(exported)).ok).toBe(true);

    // Round trip: import the JSON as a suite, export that suite again: the same RubricSet.
    await ws.write("doc.md", "# A PRD\n");
    const imported = await ws.cli([
      "import",
      "out/prd.json",
      "--output",
      "again.yaml",
      "--document",
      "doc.md",
    ]);
    expect(imported.code, imported.stderr).toBe(0);
    const again = await ws.cli(["export", "--config", "again.yaml"]);
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toEqual(exported);
  });

  test("export: no category rubric, or several without --rubric, is exit 2 saying what to do", async ({
    onTestFinished,
  }) => {
    const ws = await makeWorkspace(onTestFinished);
    await ws.write(
      "plain.yaml",
      yaml("evals:", "  - name: e", '    response: "hi"', '    rubric: "Polite."'),
    );
    const none = await ws.cli(["export", "--config", "plain.yaml"]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain("has no eval with a category rubric");
    const two = yaml(
      "rubrics:",
      "  a: { name: A, categories: [{ id: clarity, name: Clarity, description: Clear. }] }",
      "  b: { name: B, categories: [{ id: scope, name: Scope, description: Scoped. }] }",
      "evals:",
      '  - { name: ea, document: "text", rubric: { ref: a } }',
      '  - { name: eb, document: "text", rubric: { ref: b } }',
    );
    await ws.write("two.yaml", two);
    const ambiguous = await ws.cli(["export", "--config", "two.yaml"]);
    expect(ambiguous.code, ambiguous.stderr).toBe(2);
    expect(ambiguous.stderr).toMatch(/use 2 category rubrics; pick one with --rubric ID: a, b/);
    const picked = await ws.cli(["export", "--config", "two.yaml", "--rubric", "b"]);
    expect(picked.code, picked.stderr).toBe(0);
    expect(JSON.parse(picked.stdout)).toMatchObject({ id: "b", categories: [{ id: "scope" }] });
  });

  test("report FILE: Go EvaluationReports rendered with the reporters; exit 1 when one did not pass", async ({
    onTestFinished,
  }) => {
    const ws = await makeWorkspace(onTestFinished);
    const passing = goReport({
      document: "prd-1.md",
      decision: "pass",
      passed: true,
      scores: [
        ["problem", "pass"],
        ["metrics", "pass"],
      ],
    });
    const failing = goReport({
      document: "prd-2.md",
      decision: "fail",
      passed: false,
      scores: [
        ["problem", "pass"],
        ["metrics", "fail"],
      ],
    });
    for (const report of [passing, failing])
      expect(checkGoJson(report, "EvaluationReport")).toEqual([]);
    await ws.write("one.json", JSON.stringify(passing));
    await ws.write("two.json", JSON.stringify([passing, failing]));

    const one = await ws.cli(["report", "one.json", "--no-color"]);
    expect(one.code, one.stderr).toBe(0);
    expect(one.stdout).toContain("review prd-1.md title");

    // omitempty fields left out: no rubric to name, no finding limits to show.
    const { rubricId: _id, ...bare } = failing;
    await ws.write(
      "bare.json",
      JSON.stringify({ ...bare, passCriteria: { minCategoriesPassing: "all" } }),
    );
    const plain = await ws.cli(["report", "bare.json", "--no-color"]);
    expect(plain.code, plain.stderr).toBe(1);
    expect(plain.stdout).toContain("Review type prd, document prd-2.md");
    expect(plain.stdout).toMatch(/threshold all +\$0(?![.\d])/);

    const two = await ws.cli([
      "report",
      "two.json",
      "--reporter",
      "pretty,json,csv",
      "--output",
      "out",
      "--no-color",
    ]);
    expect(two.code, two.stderr).toBe(1);
    expect(two.stdout).toMatch(/review prd-2\.md title/);
    expect(two.stdout).toContain("Rubric prd, review type prd, document prd-2.md");
    const json = await ws.readReport("out/report.json");
    expect(json.results.map((r) => [r.name, r.status, r.display, r.score])).toEqual([
      ["review prd-1.md title", "passed", "pass", 1],
      ["review prd-2.md title", "failed", "fail", 0.5],
    ]);
    expect(json.results[1]!.review!.report.findings[0]!.severity).toBe("high");
    expect(json.results[1]!.latencyMs).toBe(2500);
    const csv = await ws.read("out/report.csv");
    expect(csv).toContain("criterion: metrics");
    expect(csv).not.toMatch(/(^|,)=cmd/m);
  });

  test("review writes what the spec's structs say, and report FILE renders it back with the same decision", async ({
    onTestFinished,
  }) => {
    const ws = await makeWorkspace(onTestFinished);
    const judge = await startFakeJudge(onTestFinished, {
      respond: (request) => {
        const metrics = request.user.includes("(id: metrics) only");
        return {
          toolInput: {
            reasoning: "looked",
            score: metrics ? "partial" : "pass",
            evidence: ["Target: p95 under 2s."],
            findings: metrics
              ? [
                  {
                    severity: "medium",
                    title: "No baseline",
                    description: "d",
                    recommendation: "r",
                  },
                ]
              : [],
          },
        };
      },
    });
    await ws.write(
      "reviews.yaml",
      yaml(
        "rubrics:",
        "  prd:",
        "    name: PRD review",
        "    categories:",
        "      - { id: problem, name: Problem, description: States the problem., required: true }",
        "      - { id: metrics, name: Metrics, description: Defines success metrics. }",
        "evals:",
        "  - name: checkout prd",
        "    document: { file: prd.md, title: Checkout v2 }",
        "    rubric: { ref: prd }",
      ),
    );
    await ws.write("prd.md", "# Checkout v2\nTarget: p95 under 2s.\n");
    const review = await ws.cli(
      ["review", "--config", "reviews.yaml", "--output", "review.json"],
      judge.env,
    );
    expect(review.code, review.stderr).toBe(0);
    const written = JSON.parse(await ws.read("review.json")) as { decision: { status: string } };
    expect(checkGoJson(written, "EvaluationReport")).toEqual([]);
    const rendered = await ws.cli(["report", "review.json", "--reporter", "json"]);
    expect(rendered.code, rendered.stderr).toBe(0);
    const report = JSON.parse(rendered.stdout) as {
      results: { name: string; display: string; criteria: { name: string; score: number }[] }[];
    };
    expect(report.results.map((r) => [r.name, r.display])).toEqual([
      ["review Checkout v2", written.decision.status],
    ]);
    expect(report.results[0]!.criteria.map((c) => [c.name, c.score])).toEqual([
      ["problem", 1],
      ["metrics", 0.5],
    ]);
  });

  test("report FILE: a MultiJudgeResult renders its consolidated decision and its agreement", async ({
    onTestFinished,
  }) => {
    const ws = await makeWorkspace(onTestFinished);
    const a = goReport({
      document: "prd.md",
      decision: "pass",
      passed: true,
      scores: [
        ["problem", "pass"],
        ["metrics", "pass"],
      ],
    });
    const failing = goReport({
      document: "prd.md",
      decision: "fail",
      passed: false,
      scores: [
        ["problem", "pass"],
        ["metrics", "fail"],
      ],
    });
    const b = { ...failing, judge: { ...failing.judge, model: "claude-haiku-4-5" } };
    const multi = {
      evaluations: [a, b],
      judges: [a.judge, b.judge],
      aggregatedCategories: [
        { category: "problem", score: "pass", reasoning: "both pass" },
        { category: "metrics", score: "fail", reasoning: "conservative" },
      ],
      aggregationMethod: "conservative",
      agreement: 0.75,
      disagreements: [
        {
          category: "metrics",
          scores: [
            { judgeId: "claude-sonnet-4-6", score: "pass" },
            { judgeId: "claude-haiku-4-5", score: "fail" },
          ],
          uniqueScores: 2,
        },
      ],
      consolidatedDecision: b.decision,
      consolidatedFindings: b.findings,
    };
    expect(checkGoJson(multi, "MultiJudgeResult")).toEqual([]);
    await ws.write("multi.json", JSON.stringify(multi));
    const run = await ws.cli(["report", "multi.json", "--reporter", "json"]);
    expect(run.code, run.stderr).toBe(1);
    const report = JSON.parse(run.stdout) as {
      results: {
        status: string;
        display: string;
        judges: { model: string; passed: boolean }[];
        review: { multiJudge: { agreement: number } };
        usage: { input: number };
      }[];
    };
    expect(report.results).toHaveLength(1);
    expect(report.results[0]).toMatchObject({
      status: "failed",
      display: "fail",
      review: { multiJudge: { agreement: 0.75 } },
      usage: { input: 2400 },
    });
    expect(report.results[0]!.judges.map((j) => [j.model, j.passed])).toEqual([
      ["claude-sonnet-4-6", true],
      ["claude-haiku-4-5", false],
    ]);
  });

  test("report FILE: a file that is not JSON, or not a report, is exit 2 at the file", async ({
    onTestFinished,
  }) => {
    const ws = await makeWorkspace(onTestFinished);
    await ws.write("broken.json", '{\n  "metadata": {,\n}');
    await ws.write("other.json", JSON.stringify({ hello: "world" }));
    const broken = await ws.cli(["report", "broken.json"]);
    expect(broken.code).toBe(2);
    expect(broken.stderr).toMatch(/^broken\.json:2:16: error: not valid JSON/m);
    const other = await ws.cli(["report", "other.json"]);
    expect(other.code).toBe(2);
    expect(other.stderr).toMatch(/^other\.json:1:1: error: not an EvaluationReport: metadata: /m);
    const missing = await ws.cli(["report", "nowhere.json"]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(
      "nowhere.json:1:1: error: cannot read the report: file not found",
    );
  });

  test("report FILE: the Go fixture's tokens read as its total_tokens, and pretty, md and html show each judge's tokens and latency", async ({
    onTestFinished,
  }) => {
    const ws = await makeWorkspace(onTestFinished);
    await ws.write("go.json", await readFile(GO_FIXTURE, "utf8"));
    const run = await ws.cli([
      "report",
      "go.json",
      "--reporter",
      "pretty,md,html",
      "--output",
      "out",
      "--no-color",
    ]);
    expect(run.code, run.stderr).toBe(1);
    const judgeLine =
      "Judge sonnet-judge (claude-sonnet-4-6): 6,100 tokens (input 1,200, output 900, cache read 4,000, cache write 0) · latency 2.35s";
    expect(run.stdout).toContain(judgeLine);
    expect(run.stdout).toContain("0 judge calls · 6,100 tokens (input 1,200,");
    expect(run.stdout).not.toContain("10,100");
    expect(await ws.read("out/report.md")).toContain(judgeLine);
    expect(await ws.read("out/report.html")).toContain("· latency 2.35s");
  });

  test("report FILE: a MultiJudgeResult's summary and next steps are the consolidated decision's, not the first judge's", async ({
    onTestFinished,
  }) => {
    const ws = await makeWorkspace(onTestFinished);
    const scores: [string, "pass" | "partial" | "fail"][] = [
      ["problem", "pass"],
      ["metrics", "pass"],
    ];
    const a = goReport({ document: "prd.md", decision: "pass", passed: true, scores });
    const b = {
      ...goReport({ document: "prd.md", decision: "fail", passed: false, scores }),
      judge: { ...a.judge, model: "claude-haiku-4-5" },
    };
    const decision = {
      ...b.decision,
      status: "human_review",
      passed: false,
      rationale: "The judges disagree on a blocking finding",
    };
    const multi = {
      evaluations: [
        { ...a, summary: "Categories: 2 pass, 0 partial, 0 fail. No findings. Decision: pass." },
        b,
      ],
      judges: [a.judge, b.judge],
      aggregatedCategories: a.categories,
      aggregationMethod: "majority",
      agreement: 1,
      consolidatedDecision: decision,
      consolidatedFindings: b.findings,
    };
    expect(checkGoJson(multi, "MultiJudgeResult")).toEqual([]);
    await ws.write("multi.json", JSON.stringify(multi));
    const run = await ws.cli(["report", "multi.json", "--no-color"]);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stdout).toContain("Decision: human_review (not passed)");
    expect(run.stdout).toContain(
      "Categories: 2 pass, 0 partial, 0 fail. 1 findings (1 high). Decision: human_review.",
    );
    expect(run.stdout).not.toContain("Decision: pass");
    expect(run.stdout).toContain("immediate: Add metrics.");
    expect(run.stdout).toMatch(/Judge claude-haiku-4-5: 1,500 tokens .* latency 2\.50s/);
  });
});
