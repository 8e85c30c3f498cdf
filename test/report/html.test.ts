import { describe, expect, it } from "vitest";
import type { EvalResult } from "../../lib/engine/results/report";
import { htmlReporter } from "../../lib/report/html";
import { buildSampleReport, sampleResults } from "../support/sample-report";

const SCRIPT = "<script>alert(1)</script>";
const IMG = "<img src=x onerror=alert(1)>";
const LINK = '"><a href="https://evil.example/x">click</a>';
const PAYLOAD = `${SCRIPT}${IMG}${LINK}`;

function hostile(result: EvalResult): EvalResult {
  return {
    ...result,
    name: `${result.name} ${PAYLOAD}`,
    eval: PAYLOAD,
    reason: PAYLOAD,
    note: PAYLOAD,
    gates: [PAYLOAD],
    rubric: { ...result.rubric, text: PAYLOAD },
    candidate: { ...result.candidate, prompt: PAYLOAD, response: PAYLOAD },
    criteria: result.criteria.map((c) => ({
      ...c,
      name: PAYLOAD,
      description: PAYLOAD,
      reasoning: PAYLOAD,
      evidence: PAYLOAD,
      verdicts: c.verdicts.map((v) => ({ ...v, judge: PAYLOAD, error: PAYLOAD })),
    })),
    judges: result.judges.map((j) => ({ ...j, judge: PAYLOAD, error: PAYLOAD })),
    tree: result.tree && {
      path: result.tree.path.map((s) => ({ ...s, ask: PAYLOAD, reasoning: PAYLOAD })),
      leaf: result.tree.leaf && { ...result.tree.leaf, reason: PAYLOAD },
    },
  };
}

function renderHostile(): string {
  const report = buildSampleReport({
    results: sampleResults().map(hostile),
    suite: { file: PAYLOAD, description: PAYLOAD },
  });
  return htmlReporter.render(report, { color: false });
}

describe("html reporter", () => {
  it("is one HTML document with its style inline", () => {
    const page = htmlReporter.render(buildSampleReport(), { color: false });
    expect(page.startsWith("<!doctype html>")).toBe(true);
    expect(page.trimEnd().endsWith("</html>")).toBe(true);
    expect(page).toContain("<style>");
    expect(page).toMatch(/<meta http-equiv="Content-Security-Policy" content="default-src 'none';/);
  });

  it("loads nothing from anywhere and needs no script", () => {
    const page = htmlReporter.render(buildSampleReport(), { color: false });
    expect(page).not.toMatch(/<script|<link|<iframe|<object|<embed|@import|url\(/i);
    expect(page).not.toMatch(/\s(?:src|href|action|srcset)\s*=\s*["']?\s*(?:https?:)?\/\//i);
    for (const [, target] of page.matchAll(/\shref="([^"]*)"/g))
      expect(target).toMatch(/^#result-\d+$/);
  });

  it("shows injected markup only escaped, wherever it came from", () => {
    const page = renderHostile();
    expect(page).not.toMatch(/<script/i);
    expect(page).not.toMatch(/<img/i);
    expect(page).not.toMatch(/<[^>]*onerror\s*=/i);
    expect(page).not.toMatch(/\s(?:src|href)\s*=\s*["']?\s*(?:https?:)?\/\//i);
    expect(page).not.toContain('<a href="https');
    expect(page).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(page).toContain("&lt;img src=x onerror=alert(1)&gt;");
    expect(page).toContain("&quot;&gt;&lt;a href=&quot;https://evil.example/x&quot;&gt;");
  });

  it("shows every status with its own badge, and marks a vacuous pass", () => {
    const page = htmlReporter.render(buildSampleReport(), { color: false });
    for (const status of ["passed", "failed", "deferred", "judge_error", "skipped"])
      expect(page).toContain(`class="badge s-${status}"`);
    expect(page).toContain('<span class="badge vacuous">vacuous</span>');
    expect(page).toContain("skipped (budget)");
  });

  it("shows criteria, evidence, juror errors, the tree path and the candidate", () => {
    const page = htmlReporter.render(buildSampleReport(), { color: false });
    expect(page).toContain("required (failed)");
    expect(page).toContain("guard (triggered)");
    expect(page).toContain("<q>cut latency by 40%</q>");
    expect(page).toContain("timeout after 3 attempts");
    expect(page).toContain("Does it page the on-call engineer? → no (0.30)");
    expect(page).toContain(
      "<pre>The last release added per-tenant rate limits and cut latency by 40%.</pre>",
    );
  });

  it("opens the sections of results that need attention", () => {
    const page = htmlReporter.render(buildSampleReport(), { color: false });
    expect(page).toContain('<details id="result-2" open>');
    expect(page).toContain('<details id="result-1">');
  });
});
