import { describe, expect, test } from "vitest";
import { makeWorkspace, startFakeJudge, yaml } from "./cli-harness";
import { parseEvaluationReport, parseMultiJudgeResult } from "../../lib/engine/review/wire-json";

// `rubric-studio import` and `rubric-studio review` as a user runs them: a Go
// RubricSet becomes a suite, and a document reviewed by a panel of three
// models (the real SDK against the Messages API stand-in) becomes
// EvaluationReport / MultiJudgeResult JSON with a decision and an exit code.

const SUITE = yaml(
  "rubrics:",
  "  prd:",
  "    name: PRD review",
  "    review_type: prd",
  "    categories:",
  "      - { id: problem, name: Problem, description: States the problem with evidence., required: true }",
  "      - { id: metrics, name: Metrics, description: Defines success metrics. }",
  "evals:",
  "  - name: checkout prd",
  "    document: { file: docs/prd.md, id: PRD-142, title: Checkout v2 }",
  "    rubric: { ref: prd }",
  "    judge:",
  "      panel: [claude-sonnet-4-6, claude-haiku-4-5, claude-opus-4-1]",
  "      aggregate: majority",
);

// The last turn names the one category to score; the system prompt lists them all.
const categoryIn = (user: string) => /\(id: (\w+)\) only/.exec(user)?.[1];

describe.concurrent("rubric-studio review", () => {
  test("a panel of three models: the MultiJudgeResult by majority, the document read from its file, exit 0 on a passed conditional", async ({
    onTestFinished,
  }) => {
    const ws = await makeWorkspace(onTestFinished);
    // Opus finds a blocking gap in the metrics; the other two see a partial.
    const judge = await startFakeJudge(onTestFinished, {
      respond: (request) => {
        const category = categoryIn(request.user);
        const opus = String(request.body.model).includes("opus");
        const score = category === "problem" ? "pass" : opus ? "fail" : "partial";
        const findings =
          category === "metrics"
            ? [
                {
                  severity: opus ? "high" : "medium",
                  title: "No baseline",
                  description: "p95 target without today's value",
                  recommendation: "Add the current p95",
                },
              ]
            : [];
        return {
          toolInput: {
            reasoning: `${category} looked at`,
            score,
            evidence: ["Target: p95 under 2s."],
            findings,
          },
        };
      },
    });
    await ws.write("reviews.yaml", SUITE);
    await ws.write(
      "docs/prd.md",
      "# Checkout v2\nCarts are abandoned when checkout is slow.\nTarget: p95 under 2s.\n",
    );
    const run = await ws.cli(
      ["review", "--config", "reviews.yaml", "--multi-judge", "--output", "out/review.json"],
      judge.env,
    );

    expect(run.stderr).toContain(
      "✓ checkout prd: conditional: majority of 3 judge decisions (2 conditional, 1 fail) gives conditional",
    );
    expect(run.code).toBe(0);
    // 3 models x 2 categories, every request carrying the document.
    expect(judge.api.requests).toHaveLength(6);
    expect(
      judge.api.requests.every((r) =>
        r.user.includes("Carts are abandoned when checkout is slow."),
      ),
    ).toBe(true);
    const multi = parseMultiJudgeResult(JSON.parse(await ws.read("out/review.json")));
    if (!multi.ok) throw new Error(multi.issues.join("\n"));
    const result = multi.value;
    expect(result.aggregationMethod).toBe("majority");
    expect(result.judges.map((j) => j.model).sort()).toEqual([
      "claude-haiku-4-5",
      "claude-opus-4-1",
      "claude-sonnet-4-6",
    ]);
    expect(result.aggregatedCategories.map((c) => [c.category, c.score])).toEqual([
      ["problem", "pass"],
      ["metrics", "partial"],
    ]);
    // problem: 3 of 3 agree; metrics: 2 of 3 -> (1 + 2/3) / 2
    expect(result.agreement).toBeCloseTo(5 / 6, 10);
    expect(result.disagreements?.map((d) => [d.category, d.uniqueScores])).toEqual([
      ["metrics", 2],
    ]);
    // The same finding from three judges is one, at its highest severity.
    expect(result.consolidatedFindings.map((f) => [f.id, f.severity, f.title])).toEqual([
      ["metrics-1", "high", "No baseline"],
    ]);
    // Two judges decide conditional (a partial, a medium finding), opus fail (a high finding): majority conditional.
    expect(result.evaluations.map((e) => e.decision.status).sort()).toEqual([
      "conditional",
      "conditional",
      "fail",
    ]);
    expect(result.consolidatedDecision).toMatchObject({ status: "conditional", passed: true });
    expect(result.evaluations[0]!.metadata).toMatchObject({
      document: "docs/prd.md",
      documentId: "PRD-142",
      documentTitle: "Checkout v2",
    });
    expect(result.judges[0]!.latency).toBeGreaterThan(0);
  });

  test("findings carry owner and effort (asked for in the tool schema), and the judge metadata its model version, system prompt hash and temperature", async ({
    onTestFinished,
  }) => {
    const ws = await makeWorkspace(onTestFinished);
    const judge = await startFakeJudge(onTestFinished, {
      respond: (request) => ({
        model: "claude-sonnet-4-6-20260214",
        toolInput: {
          reasoning: "looked",
          score: categoryIn(request.user) === "metrics" ? "fail" : "pass",
          evidence: [],
          findings:
            categoryIn(request.user) === "metrics"
              ? [
                  {
                    severity: "high",
                    title: "No baseline",
                    description: "p95 target without today's value",
                    recommendation: "Add the current p95",
                    owner: "engineering",
                    effort: "low",
                  },
                ]
              : [],
        },
      }),
    });
    await ws.write("reviews.yaml", SUITE.replace(/    judge:\n.*\n.*\n/, ""));
    await ws.write("docs/prd.md", "A document.\n");
    const run = await ws.cli(["review", "--config", "reviews.yaml"], judge.env);
    expect(run.code).toBe(1);
    // The verdict tool asks for both, so a judge can give them.
    const tool = (judge.api.requests[0]!.body.tools as { input_schema: unknown }[])[0]!;
    expect(JSON.stringify(tool.input_schema)).toMatch(/"owner".*"effort"/);
    const report = parseEvaluationReport(JSON.parse(run.stdout));
    if (!report.ok) throw new Error(report.issues.join("\n"));
    expect(report.value.findings.map((f) => [f.title, f.owner, f.effort])).toEqual([
      ["No baseline", "engineering", "low"],
    ]);
    expect(report.value.nextSteps.immediate?.[0]).toMatchObject({
      action: "Add the current p95",
      owner: "engineering",
      effort: "low",
    });
    const meta = report.value.judge!;
    expect(meta.model).toBe("claude-sonnet-4-6");
    expect(meta.model_version).toBe("claude-sonnet-4-6-20260214");
    expect(meta.system_prompt).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(meta.temperature).toBe(1);
  });

  test("a panel whose judges cannot agree decides human_review; overallDecision, the simplified pass / conditional / fail, reads conditional", async ({
    onTestFinished,
  }) => {
    const ws = await makeWorkspace(onTestFinished);
    const judge = await startFakeJudge(onTestFinished, {
      respond: (request) => ({
        toolInput: {
          reasoning: "r",
          score: String(request.body.model).includes("opus") ? "fail" : "pass",
          evidence: [],
          findings: [],
        },
      }),
    });
    await ws.write(
      "reviews.yaml",
      SUITE.replace(
        /    judge:\n.*\n.*\n/,
        "    judge:\n      panel: [claude-sonnet-4-6, claude-opus-4-1]\n      aggregate: unanimous\n",
      ),
    );
    await ws.write("docs/prd.md", "A document.\n");
    const run = await ws.cli(["review", "--config", "reviews.yaml"], judge.env);
    const report = parseEvaluationReport(JSON.parse(run.stdout));
    if (!report.ok) throw new Error(report.issues.join("\n"));
    expect(report.value.decision.status).toBe("human_review");
    expect(report.value.overallDecision).toBe("conditional");
  });

  test("one judge: the EvaluationReport on stdout, exit 0 when the decision passed", async ({
    onTestFinished,
  }) => {
    const ws = await makeWorkspace(onTestFinished);
    const judge = await startFakeJudge(onTestFinished, {
      respond: () => ({
        toolInput: { reasoning: "fine", score: "pass", evidence: [], findings: [] },
      }),
    });
    await ws.write("reviews.yaml", SUITE.replace(/    judge:\n.*\n.*\n/, ""));
    await ws.write("docs/prd.md", "A document.\n");
    const run = await ws.cli(["review", "--config", "reviews.yaml"], judge.env);
    expect(run.code).toBe(0);
    const report = parseEvaluationReport(JSON.parse(run.stdout));
    if (!report.ok) throw new Error(report.issues.join("\n"));
    expect(report.value).toMatchObject({
      reviewType: "prd",
      overallDecision: "pass",
      decision: { passed: true },
      summary: "Categories: 2 pass, 0 partial, 0 fail. No findings. Decision: pass.",
    });
    expect(report.value.nextSteps.rerunCommand).toBe(
      "rubric-studio review --config 'reviews.yaml' --filter '^checkout prd$'",
    );
  });
});
