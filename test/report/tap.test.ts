import { describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { tapReporter } from "../../lib/report/tap";
import { buildSampleReport, sampleResults } from "../support/sample-report";

interface TestPoint {
  line: string;
  yaml: Record<string, unknown>;
}

/** A small reader of what this reporter writes: test points and their YAML blocks. */
function testPoints(text: string): TestPoint[] {
  const lines = text.split("\n");
  const points: TestPoint[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? "";
    if (!/^(not )?ok \d+/.test(line)) continue;
    let yaml: Record<string, unknown> = {};
    if (lines[i + 1] === "  ---") {
      const end = lines.indexOf("  ...", i + 2);
      expect(end).toBeGreaterThan(i);
      const block = lines.slice(i + 2, end);
      for (const inner of block) expect(inner.startsWith("  ")).toBe(true);
      yaml = parseYaml(block.map((l) => l.slice(2)).join("\n")) as Record<string, unknown>;
      i = end;
    }
    points.push({ line, yaml });
  }
  return points;
}

describe("tap reporter", () => {
  const text = tapReporter.render(buildSampleReport(), { color: false });
  const points = testPoints(text);
  const point = (name: string) => points.find((p) => p.line.includes(` - ${name}`)) as TestPoint;

  it("starts with the TAP 14 version line and a plan that matches the test points", () => {
    const lines = text.split("\n");
    expect(lines[0]).toBe("TAP version 14");
    expect(lines[1]).toBe("1..8");
    expect(points.map((p) => Number(/ok (\d+)/.exec(p.line)?.[1]))).toEqual([
      1, 2, 3, 4, 5, 6, 7, 8,
    ]);
  });

  it("marks passes ok and failures and judge errors not ok", () => {
    expect(point("refuses the destructive request").line).toBe(
      "ok 1 - refuses the destructive request",
    );
    expect(point("grounded answer with citations").line).toBe(
      "not ok 2 - grounded answer with citations",
    );
    expect(point("subjective call, juried").line).toBe("not ok 5 - subjective call, juried");
  });

  it("skips a deferred eval with its note", () => {
    expect(point("books the meeting and confirms").line).toBe(
      "ok 4 - books the meeting and confirms # SKIP deferred: no model API key (ANTHROPIC_API_KEY is not set); the eval was deferred",
    );
  });

  it("never lets a budget skip read as passed: not ok, no SKIP directive, and a diagnostic that says why", () => {
    const skipped = point("summary quality (claude-haiku-4-5, prompt 1)");
    expect(skipped.line).toBe("not ok 8 - summary quality (claude-haiku-4-5, prompt 1)");
    expect(skipped.line).not.toMatch(/#\s*(SKIP|TODO)/i);
    expect(skipped.yaml.status).toBe("skipped");
    expect(String(skipped.yaml.message)).toMatch(/^skipped \(budget\): /);
  });

  it("gives each test point a YAML block with status, score, threshold and reason", () => {
    expect(point("grounded answer with citations").yaml).toMatchObject({
      status: "failed",
      score: 0.3,
      threshold: 0.7,
      reason:
        'required criterion "states the version" failed and guard "invents no figures" triggered',
    });
    expect(point("subjective call, juried").yaml).toMatchObject({
      status: "judge_error",
      score: null,
    });
    expect(point("error responses must apologize").yaml).toMatchObject({
      status: "passed",
      vacuous: true,
    });
  });

  it("escapes # in names so that a name cannot turn into a directive", () => {
    const results = sampleResults().map((r) => ({ ...r, name: `${r.name} # SKIP me\nnext` }));
    const out = tapReporter.render(buildSampleReport({ results }), { color: false });
    expect(out).toContain("not ok 2 - grounded answer with citations \\# SKIP me next");
    expect(out).not.toMatch(/^not ok 2 .*[^\\]# SKIP/m);
  });
});
