import { describe, expect, it } from "vitest";
import { loadSuite } from "../../lib/config/load-suite";
import { issuesOf, only } from "./issues-of";

const evalWith = (rubric: string) => `evals:
  - name: e
    response: "The answer."
    rubric:
${rubric}`;

describe("loadSuite: every load-time error is located and names the valid choices", () => {
  it("reports a YAML syntax error with its line and column", () => {
    const issue = only(`evals:\n  - name: "unclosed\n    rubric: x\n`);
    expect(issue.message).toMatch(/^YAML syntax error/);
    expect(issue.file).toBe("suite.yaml");
    expect(issue.line).toBeGreaterThanOrEqual(2);
  });

  it("reports an unknown field at the key, with a suggestion and the valid fields", () => {
    const issues = issuesOf(
      evalWith(`      criteria:\n        - name: a\n          descripton: "typo"\n`),
    );
    expect(issues.map((i) => i.message)[0]).toBe('missing required field "description"');
    const issue = issues[1]!;
    expect(issue).toMatchObject({ line: 7, column: 11 });
    expect(issue.message).toContain('unknown field "descripton"');
    expect(issue.message).toContain('did you mean "description"');
    expect(issue.message).toContain("valid fields here: name, description, weight");
  });

  it("reports an unknown top-level field", () => {
    const issue = only(`evalz: []\nevals:\n  - name: e\n    rubric: x\n`);
    expect(issue).toMatchObject({ line: 1, column: 1 });
    expect(issue.message).toContain('did you mean "evals"');
  });

  it("reports an unknown ref and lists the defined rubrics", () => {
    const issue = only(
      `rubrics:\n  helpful: "Answers the question."\nevals:\n  - name: e\n    response: r\n    rubric: { ref: helpfull }\n`,
    );
    expect(issue).toMatchObject({ line: 6, column: 20 });
    expect(issue.message).toBe(
      'unknown rubric ref "helpfull" (did you mean "helpful"?); defined rubrics: helpful',
    );
  });

  it("reports an unknown preset and lists the five", () => {
    const issue = only(evalWith(`      preset: helpfulnes\n`));
    expect(issue).toMatchObject({ line: 5, column: 15 });
    expect(issue.message).toContain(
      "valid presets: helpfulness, groundedness, safety, format-adherence, conciseness",
    );
  });

  it("reports an unknown aggregation and an unknown scale", () => {
    const issues = issuesOf(
      evalWith(
        `      aggregation: average\n      scale: percent\n      criteria:\n        - { name: a, description: b }\n`,
      ),
    );
    expect(issues.map((i) => [i.line, i.message])).toEqual([
      [5, "unknown aggregation: valid values are weighted_average, min, worst"],
      [6, "unknown scale: valid scales are unit, boolean, letter, or { likert: { min, max } }"],
    ]);
  });

  it("rejects criteria together with tree", () => {
    const issue = only(
      evalWith(
        `      criteria:\n        - { name: a, description: b }\n      tree: { ask: "q?", yes: { score: 1 }, no: { score: 0 } }\n`,
      ),
    );
    expect(issue.message).toBe("give a rubric either criteria or tree, never both");
    expect(issue.line).toBe(5);
  });

  it("rejects an invalid regex at the regex", () => {
    const issue = only(
      evalWith(
        `      criteria:\n        - name: a\n          description: b\n          when: { regex: "error(" }\n`,
      ),
    );
    expect(issue).toMatchObject({ line: 8, column: 26 });
    expect(issue.message).toMatch(/^invalid regex: /);
  });

  it("rejects duplicate eval names and points at the second", () => {
    const issue = only(
      `evals:\n  - name: same\n    response: r\n    rubric: x\n  - name: same\n    response: r\n    rubric: y\n`,
    );
    expect(issue).toMatchObject({ line: 5, column: 11 });
    expect(issue.message).toContain("first defined at line 2");
  });

  it("rejects a weight of zero or less", () => {
    const issues = issuesOf(
      evalWith(
        `      criteria:\n        - { name: a, description: b, weight: 0 }\n        - { name: c, description: d, weight: -2 }\n`,
      ),
    );
    expect(issues.map((i) => [i.line, i.message])).toEqual([
      [6, "weight must be greater than 0"],
      [7, "weight must be greater than 0"],
    ]);
  });

  it("rejects thresholds outside 0..1 wherever they are", () => {
    const issues = issuesOf(
      `evals:\n  - name: e\n    response: r\n    threshold: 1.5\n    rubric:\n      threshold: -0.1\n      criteria:\n        - { name: a, description: b, threshold: 2 }\n`,
    );
    expect(issues.map((i) => i.line)).toEqual([4, 6, 8]);
    for (const issue of issues) expect(issue.message).toBe("threshold must be between 0 and 1");
  });

  it("reports a missing required field at its parent", () => {
    const issue = only(`evals:\n  - name: e\n    response: r\n`);
    expect(issue.message).toBe('missing required field "rubric"');
    expect(issue.line).toBe(2);
  });

  it("reports a tree node that is neither a question nor a leaf", () => {
    const issues = issuesOf(
      evalWith(
        `      tree:\n        ask: "q?"\n        yes: { score: 1.2 }\n        no: { ask: "other?" }\n`,
      ),
    );
    expect(issues.map((i) => i.message)).toEqual([
      "a leaf score must be between 0 and 1",
      'missing required field "yes"',
      'missing required field "no"',
    ]);
  });

  it("rejects a ref that also brings criteria, and ref+preset confusion", () => {
    const issue = only(
      `rubrics:\n  r: "Good."\nevals:\n  - name: e\n    response: x\n    rubric:\n      ref: r\n      criteria:\n        - { name: a, description: b }\n`,
    );
    expect(issue.message).toContain("takes only threshold and strict overrides");
  });

  it("rejects a server with neither command nor url, and a bad url", () => {
    const issues = issuesOf(
      `servers:\n  a: {}\n  b: { url: "not a url" }\nevals:\n  - name: e\n    response: r\n    rubric: x\n`,
    );
    expect(issues.map((i) => [i.line, i.message])).toEqual([
      [2, "a server needs either command (stdio) or url (Streamable HTTP)"],
      [3, "url must be an absolute http(s) URL"],
    ]);
  });

  it("reports every problem at once, sorted by line", () => {
    const issues = issuesOf(
      evalWith(
        `      aggregation: nope\n      criteria:\n        - { name: a, description: b, weight: 0, extra: 1 }\n`,
      ),
    );
    expect(issues.length).toBe(3);
    expect([...issues].sort((a, b) => a.line - b.line || a.column - b.column)).toEqual(issues);
  });

  it("rejects an empty file", () => {
    expect(only("").message).toContain("empty");
  });
});

describe("loadSuite: resolution", () => {
  it("expands refs with inline overrides, presets with appended criteria, and defaults", () => {
    const result = loadSuite({
      file: "s.yaml",
      text: `rubrics:
  base:
    threshold: 0.6
    criteria:
      - { name: a, description: b }
evals:
  - name: by ref
    response: r
    rubric: { ref: base, threshold: 0.9, strict: true }
  - name: by preset
    response: r
    rubric:
      preset: conciseness
      criteria:
        - { name: extra, description: "An extra check.", weight: 2 }
  - name: free
    response: r
    rubric: "Be good."
`,
    });
    if (!result.ok) throw new Error(JSON.stringify(result.issues));
    const [byRef, byPreset, free] = result.value.evals;
    expect(byRef!.rubric).toMatchObject({
      kind: "criteria",
      threshold: 0.9,
      strict: true,
      source: { type: "ref", name: "base" },
    });
    expect(byPreset!.rubric.kind).toBe("criteria");
    if (byPreset!.rubric.kind !== "criteria") return;
    expect(byPreset!.rubric.criteria.at(-1)).toMatchObject({
      name: "extra",
      weight: 2,
      required: false,
      guard: false,
    });
    expect(byPreset!.rubric.criteria.length).toBeGreaterThan(1);
    expect(free!.rubric).toMatchObject({ kind: "freeform", threshold: 0.7, text: "Be good." });
    expect(free!.judge).toMatchObject({
      jury: { size: 1, consensus: 0.5 },
      aggregate: "mean",
      tieBreak: "fail",
    });
  });

  it("maps worst to min, likert to a scale, and keeps the location of each eval", () => {
    const result = loadSuite({
      file: "s.yaml",
      text: evalWith(
        `      aggregation: worst\n      scale: { likert: { min: 1, max: 5 } }\n      criteria:\n        - { name: a, description: b }\n`,
      ),
    });
    if (!result.ok) throw new Error(JSON.stringify(result.issues));
    expect(result.value.evals[0]!.rubric).toMatchObject({
      aggregation: "min",
      scale: { kind: "likert", min: 1, max: 5 },
    });
    expect(result.value.evals[0]!.location).toMatchObject({ file: "s.yaml", line: 2 });
  });

  it("warns that require_evidence is ignored on a decision tree, which cites no span (the guide), rather than refusing the suite", () => {
    const result = loadSuite({
      file: "s.yaml",
      text: `evals:\n  - name: e\n    response: r\n    rubric:\n      require_evidence: true\n      tree: { ask: "q?", yes: { score: 1 }, no: { score: 0 } }\n`,
    });
    if (!result.ok) throw new Error(result.issues.map((i) => i.message).join("\n"));
    expect(result.warnings.map((w) => [w.line, w.message])).toEqual([
      [
        5,
        "require_evidence is ignored: a decision tree asks yes/no questions and does not request a cited span (evidence is a criteria feature)",
      ],
    ]);
    expect(result.value.evals[0]!.rubric.kind).toBe("tree");
  });

  it("warns, without failing, about an eval that will defer", () => {
    const result = loadSuite({
      file: "s.yaml",
      text: `servers:\n  a: { command: "node" }\nevals:\n  - name: e\n    server: b\n    rubric: x\n`,
    });
    expect(result.ok).toBe(true);
    if (result.ok)
      expect(result.warnings.map((w) => w.message)).toEqual([
        'server "b" is not in servers: (a); the eval will defer',
      ]);
  });
});
