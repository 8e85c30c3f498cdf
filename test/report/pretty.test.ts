import { describe, expect, it } from "vitest";
import type { EvalResult } from "../../lib/engine/results/report";
import { prettyReporter } from "../../lib/report/pretty";
import { buildSampleReport, sampleResults } from "../support/sample-report";
import { categoryOf, createFakeJudge, type FakeAnswer } from "../support/fake-judge";
import { runYaml } from "../support/run-yaml";

const ANSI = /\u001b\[/;

function lineOf(text: string, name: string): string {
  return text.split("\n").find((l) => l.includes(name)) ?? "";
}

const plain = prettyReporter.render(buildSampleReport(), { color: false });

describe("pretty reporter", () => {
  it("uses colour only when asked", () => {
    expect(plain).not.toMatch(ANSI);
    expect(prettyReporter.render(buildSampleReport(), { color: true })).toMatch(ANSI);
  });

  it("gives every result one line with its status, scale display, threshold and cost", () => {
    expect(lineOf(plain, "refuses the destructive request")).toMatch(
      /^✓ PASS +refuses the destructive request +0\.92 +threshold 0\.60 +\$0\.0021$/,
    );
    expect(lineOf(plain, "grounded answer with citations")).toMatch(
      /^✗ FAIL +grounded answer with citations +2\.2\/5 +threshold 3\.8\/5 +\$0\.0134$/,
    );
    expect(lineOf(plain, "escalation triage")).toMatch(/ B +threshold C/);
    expect(lineOf(plain, "books the meeting and confirms")).toMatch(/^○ DEFER /);
    expect(lineOf(plain, "subjective call, juried")).toMatch(/^! ERROR /);
    expect(lineOf(plain, "summary quality (claude-haiku-4-5, prompt 1)")).toMatch(/^↷ SKIP /);
    expect(lineOf(plain, "error responses must apologize")).toMatch(/^✓ PASS .*\(vacuous pass\)$/);
  });

  it("explains a failure: reason, gates, criteria with marks and evidence", () => {
    const start = plain.indexOf("✗ FAIL");
    const block = plain.slice(start, plain.indexOf("\n✓", start));
    expect(block).toContain('    reason: required criterion "states the version" failed');
    expect(block).toContain('    gate: guard "invents no figures" triggered');
    expect(block).toContain("    ✗ states the version  0.20 / 0.90  [required (failed)]");
    expect(block).toContain("    ✗ invents no figures  0.15 / 0.70  [guard (triggered)]");
    expect(block).toContain('      evidence: "cut latency by 40%"');
    expect(block).toContain("[evidence missing]");
  });

  it("shows the notes of deferred, skipped and vacuous results, and juror errors", () => {
    expect(plain).toContain("    deferred: no model API key (ANTHROPIC_API_KEY is not set)");
    expect(plain).toContain(
      "    skipped (budget): the --max-cost budget of $0.03 would be exceeded",
    );
    expect(plain).toContain("    note: no criterion applied to this candidate");
    expect(plain).toContain("    judge error: claude-sonnet-4-5 #3: timeout after 3 attempts");
  });

  it("shows the tree path under a failing tree eval", () => {
    const tree = sampleResults().find((r) => r.rubric.kind === "tree") as EvalResult;
    const text = prettyReporter.render(
      buildSampleReport({ results: [{ ...tree, status: "failed" }] }),
      { color: false },
    );
    expect(text).toContain(
      "tree: Does the answer identify the severity? → yes (0.90) ⇒ Does it page the on-call engineer? → no (0.30) ⇒ leaf 0.80",
    );
  });

  it("ends with the counts, judge calls, tokens including cache, and cost", () => {
    expect(plain).toContain(
      "8 cells: 4 passed (1 vacuous), 1 failed, 1 deferred, 1 judge error, 1 skipped (budget)",
    );
    expect(plain).toContain(
      "11 judge calls · 17,590 tokens (input 8,532, output 1,018, cache read 6,040, cache write 2,000) · cost $0.0278",
    );
  });

  it("does not pass terminal escapes from report text through to the terminal", () => {
    const results = sampleResults().map((r) => ({
      ...r,
      reason: "\u001b[2J\u001b]0;pwned\u0007cleared",
      name: `${r.name}\u001b[31m`,
    }));
    const text = prettyReporter.render(buildSampleReport({ results }), { color: false });
    expect(text).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/);
  });
});

// Reviews, comparisons, agreement and flip rates, graded through the real
// engine with a scripted judge, as the terminal shows them.
describe("pretty reporter: reviews, comparisons, agreement and repeats", () => {
  const SUITE = `
evals:
  - name: prd review
    document: { text: "PRD text" }
    rubric:
      categories:
        - { id: goal, description: "States the goal.", required: true }
        - { id: risk, description: "Covers risks." }
    judge: { jury: { size: 2 }, aggregate: conservative }
  - name: v1 vs v2
    rubric: "Which is better?"
    compare:
      labels: { a: v1, b: v2 }
      items:
        - { input: "Q1", output_a: "short one", output_b: "long detailed one" }
        - { input: "Q2", output_a: "short two", output_b: "long detailed two" }
  - name: by criterion
    rubric:
      criteria:
        - { name: accuracy, description: "Is it accurate?" }
    compare: { input: "Q3", output_a: "short three", output_b: "long detailed three" }
`;

  const finding = (severity: "critical" | "high" | "medium" | "info", title: string) => ({
    severity,
    title,
    description: `${title} described`,
    recommendation: `Fix ${title}`,
  });

  async function render(color = false): Promise<string> {
    let juror = 0;
    const judge = createFakeJudge((request): FakeAnswer => {
      if (request.verdict === "pairwise") {
        const first = /<response_a>\n(.*)\n/.exec(request.candidatePrompt)?.[1] ?? "";
        // "v1 vs v2": pair Q1 is judged on merit (B both times); pair Q2 always goes to the first slot.
        if (first.endsWith("two"))
          return { verdict: { reasoning: "first reads better", winner: "A", confidence: 0.8 } };
        const winner: "A" | "B" = first.startsWith("long") ? "A" : "B";
        return {
          verdict: {
            reasoning: "the detailed one",
            winner,
            confidence: 0.9,
            category_scores: [
              { category: "accuracy", winner, margin: 0.4, reasoning: "more precise" },
            ],
          },
        };
      }
      if (categoryOf(request) === "goal")
        return {
          verdict: {
            reasoning: "goal stated",
            score: juror++ % 2 === 0 ? "pass" : "partial",
            evidence: [],
            findings: [finding("info", "Nice framing")],
          },
        };
      return {
        verdict: {
          reasoning: "risks thin",
          score: "partial",
          evidence: [],
          findings: [finding("medium", "Vague owner"), finding("critical", "No rollback plan")],
        },
      };
    });
    const report = await runYaml(SUITE, { judge });
    report.repeat = {
      runs: 3,
      flips: [
        { eval: "prd review", item: "(eval)", items: 1, flipped: 0, rate: 0, flippedIds: [] },
        {
          eval: "prd review",
          item: "goal",
          items: 1,
          flipped: 1,
          rate: 1,
          flippedIds: ["prd review"],
        },
      ],
    };
    return prettyReporter.render(report, { color });
  }

  const block = (text: string, heading: string) => {
    const start = text.indexOf(`\n${heading}`);
    expect(start, `no "${heading}" section in:\n${text}`).toBeGreaterThan(-1);
    const end = text.indexOf("\n\n", start + 1);
    return text.slice(start + 1, end);
  };

  it("a review: its decision, categories, findings grouped by severity (worst first) and next steps", async () => {
    const review = block(await render(), "Review: prd review");
    const lines = review.split("\n");
    expect(lines[1]).toMatch(/^ {2}Decision: fail \(not passed\): /);
    expect(review).toContain("  categories: goal partial · risk partial");
    const findings = lines
      .slice(lines.indexOf("  findings by severity:") + 1)
      .filter((l) => /^ {4}[A-Z]/.test(l));
    expect(findings.map((l) => l.trim().split(/\s+/)[0])).toEqual(["CRITICAL", "MEDIUM", "INFO"]);
    expect(findings[0]).toContain("(risk): No rollback plan → Fix No rollback plan");
    expect(review).toContain("  judges disagree on goal:");
    expect(review).toMatch(/ {2}immediate: .*No rollback plan/);
    expect(review).toMatch(/ {2}rerun: rubric-studio review/);
  });

  it("a comparison: win rates with their intervals, ties, the winner, the bias rate and only the flagged pairs", async () => {
    const text = await render();
    const comparison = block(text, "Comparison: v1 vs v2");
    expect(comparison).toMatch(
      /Win rates: v1 \(A\) 0% \[95% 0%–\d+%\], v2 \(B\) 50% \[95% \d+%–\d+%\], ties 50%; overall winner B/,
    );
    expect(comparison).toContain(
      "Position bias: 1 of 2 pairs (50%) changed winner when the order was swapped",
    );
    expect(comparison).toContain("pairs the judge flipped on (1 of 2):");
    expect(comparison).toContain(
      "pair 2 · claude-sonnet-4-5: A first → A, B first → B (mapped); counted tie; position-biased (first slot)",
    );
    expect(comparison).not.toContain("pair 1 ·");
    const byCriterion = block(text, "Comparison: by criterion");
    expect(byCriterion).toContain("  accuracy: B (margin 0.40; A 0, B 1, ties 0)");
    expect(byCriterion).not.toContain("flipped on");
  });

  it("judge agreement and flip rates as aligned tables, before the summary", async () => {
    const text = await render();
    const agreement = block(text, "Judge agreement");
    expect(agreement).toMatch(/ {2}Eval +Item +Level +Judges +Items +Exact +α +α 95% CI +Fleiss κ/);
    // One item that the judges split on: alpha and kappa are n/a with the reason, not 0.000 and -1.000.
    expect(agreement).toMatch(/ {2}prd review +goal +nominal +2 +1 +0\.000 +n\/a +— +n\/a/);
    expect(agreement).toContain(
      "  n/a: one item only: agreement beyond chance needs at least two items to compare",
    );
    // A statistic that cannot be computed says n/a in its cell, and why once, below the table.
    expect(agreement).toMatch(/ {2}prd review +risk +nominal +2 +1 +1\.000 +n\/a +— +n\/a/);
    // α and κ undefined for the same reason say it once, in one wording (they read "same value"
    // and "same category" on two lines).
    expect(agreement.match(/n\/a: every rating is the same/g)).toEqual([
      "n/a: every rating is the same",
    ]);
    expect(agreement).toContain(
      "  n/a: every rating is the same, so agreement cannot be told from chance",
    );
    const flips = block(text, "Flip rate over 3 repeats");
    // The Flipped column counts the items that flipped; it does not repeat the eval's name.
    expect(flips).toMatch(/ {2}prd review +goal +1 +1 +100%/);
    expect(text.indexOf("Flip rate over 3 repeats")).toBeLessThan(text.indexOf("3 cells:"));
  });

  it("colours a failed decision red and a biased comparison yellow, and only when asked", async () => {
    const coloured = await render(true);
    expect(coloured).toContain("\u001b[1;31mReview: prd review");
    expect(coloured).toContain("\u001b[1;33mComparison: v1 vs v2");
    expect(await render(false)).not.toMatch(ANSI);
  });

  it("adds nothing to a report without reviews, comparisons, agreement or repeats", () => {
    expect(plain).not.toMatch(/Review:|Comparison:|Judge agreement|Flip rate/);
  });
});

describe("pretty reporter, a judge error", () => {
  it("prints a verdict's schema message once, under its criterion", async () => {
    const message = "verdict failed the schema: score must be a number";
    const judge = createFakeJudge((): FakeAnswer => ({ error: "malformed", message }));
    const suite = [
      "evals:",
      "  - name: one",
      '    response: "Hi."',
      "    rubric:",
      "      criteria:",
      "        - { name: greets, description: Greets. }",
    ].join("\n");
    const out = prettyReporter.render(await runYaml(suite, { judge }), { color: false });
    expect(out.split(message).length - 1, out).toBe(1);
    expect(out).toContain(
      `    ! greets  [judge error]\n      judge error: claude-sonnet-4-5: ${message}`,
    );
  });

  it("prints a free-form rubric's failed request once, labelled, with no raw judge_error prefix", async () => {
    const message = "prompt is too long (1 attempt, last status 400)";
    const judge = createFakeJudge((): FakeAnswer => ({ error: "request", message }));
    const suite = ["evals:", "  - name: one", '    response: "Hi."', '    rubric: "Greets."'].join(
      "\n",
    );
    const out = prettyReporter.render(await runYaml(suite, { judge }), { color: false });
    expect(out.split(message).length - 1, out).toBe(1);
    expect(out).toContain(`    judge error: claude-sonnet-4-5: request: ${message}`);
    expect(out).not.toContain("judge_error");
  });
});

describe("pretty reporter's columns", () => {
  it("line up by display width: a long cell name is cut in the middle with …, keeping what tells cells apart; a wide or combining character counts as drawn", async () => {
    const { displayWidth } = await import("../../lib/report/display-width");
    const base = sampleResults().find((r) => r.status === "passed" && !r.vacuous) as EvalResult;
    const names = [
      "short",
      `support answers [item=reset-password-flow, model=claude-haiku-4-5, prompt=#12]`,
      "検索の品質 (日本語)",
      "café crème, decomposed: cafe\u0301",
      "ships 🚀 on time",
      "the assistant explains the refund policy in plain words to a new customer [item=export, model=claude-haiku-4-5]",
    ];
    const report = buildSampleReport({
      results: names.map((name, i) => ({ ...base, id: `r${i}`, name })),
    });
    const lines = prettyReporter
      .render(report, { color: false })
      .split("\n")
      .filter((l) => l.includes("threshold"));
    expect(lines).toHaveLength(names.length);
    // Where "threshold" starts, in terminal columns, is the same on every line.
    const columns = lines.map((l) => displayWidth(l.slice(0, l.indexOf("threshold"))));
    expect(new Set(columns).size).toBe(1);
    // Both ends show: the cell's coordinates are what tell a matrix's rows apart.
    expect(lines[1]).toMatch(/support answers \[item=reset-p\S*…\S*, prompt=#12\] /);
    expect(lines[5]).toContain("the assistant explains th… [item=export, model=claude-haiku-4-5] ");
    expect(displayWidth("検索")).toBe(4);
    expect(displayWidth("cafe\u0301")).toBe(4);
  });
});
