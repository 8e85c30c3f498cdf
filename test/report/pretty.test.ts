import { describe, expect, it } from "vitest";
import type { EvalResult } from "../../lib/engine/report";
import { prettyReporter } from "../../lib/report/pretty";
import { buildSampleReport, sampleResults } from "../support/sample-report";

const ANSI = /\u001b\[/;

function lineOf(text: string, name: string): string {
  return text.split("\n").find((l) => l.includes(name)) ?? "";
}

describe("pretty reporter", () => {
  const plain = prettyReporter.render(buildSampleReport(), { color: false });

  it("uses colour only when asked", () => {
    expect(plain).not.toMatch(ANSI);
    expect(prettyReporter.render(buildSampleReport(), { color: true })).toMatch(ANSI);
  });

  it("gives every result one line with its status, scale display, threshold and cost", () => {
    expect(lineOf(plain, "refuses the destructive request")).toMatch(/^✓ PASS +refuses the destructive request +0\.92 +threshold 0\.60 +\$0\.0021$/);
    expect(lineOf(plain, "grounded answer with citations")).toMatch(/^✗ FAIL +grounded answer with citations +2\.2\/5 +threshold 3\.8\/5 +\$0\.0134$/);
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
    expect(plain).toContain("    skipped (budget): the --max-cost budget of $0.03 would be exceeded");
    expect(plain).toContain("    note: no criterion applied to this candidate");
    expect(plain).toContain("    judge error: claude-sonnet-4-5 #3: timeout after 3 attempts");
  });

  it("shows the tree path under a failing tree eval", () => {
    const tree = sampleResults().find((r) => r.rubric.kind === "tree") as EvalResult;
    const text = prettyReporter.render(buildSampleReport({ results: [{ ...tree, status: "failed" }] }), { color: false });
    expect(text).toContain("tree: Does the answer identify the severity? → yes (0.90) ⇒ Does it page the on-call engineer? → no (0.30) ⇒ leaf 0.80");
  });

  it("ends with the counts, judge calls, tokens including cache, and cost", () => {
    expect(plain).toContain("8 evals: 4 passed (1 vacuous), 1 failed, 1 deferred, 1 judge error, 1 skipped (budget)");
    expect(plain).toContain("11 judge calls · 17,590 tokens (input 8,532, output 1,018, cache read 6,040, cache write 2,000) · cost $0.0278");
  });

  it("does not pass terminal escapes from report text through to the terminal", () => {
    const results = sampleResults().map((r) => ({ ...r, reason: "\u001b[2J\u001b]0;pwned\u0007cleared", name: `${r.name}\u001b[31m` }));
    const text = prettyReporter.render(buildSampleReport({ results }), { color: false });
    expect(text).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/);
  });
});
