import { describe, expect, it } from "vitest";
import { formatCount } from "../../lib/config/limits";
import { checkDraft } from "../../lib/engine/plan/check-draft";
import { issuesOf, only } from "./issues-of";

const list = (n: number, prefix: string) =>
  `[${Array.from({ length: n }, (_, i) => `${prefix}${i}`).join(", ")}]`;

describe("counts in the language have upper bounds, each a located error", () => {
  it.each([
    [
      "a jury",
      "judge: { jury: { size: 99999999 } }\nevals:\n  - { name: a, response: hi, rubric: x }\n",
      { line: 1, column: 24 },
      "jury size must be at most 25",
    ],
    [
      "a panel",
      `judge: { panel: ${list(11, "m")} }\nevals:\n  - { name: a, response: hi, rubric: x }\n`,
      { line: 1, column: 17 },
      "a panel has at most 10 models",
    ],
    [
      "a matrix axis",
      `evals:\n  - name: a\n    response: hi\n    rubric: x\n    matrix: { models: ${list(51, "m")} }\n`,
      { line: 5, column: 23 },
      "a matrix axis has at most 50 values",
    ],
    [
      "a name",
      `evals:\n  - { name: ${"n".repeat(201)}, response: hi, rubric: x }\n`,
      { line: 2, column: 13 },
      "at most 200 characters",
    ],
    [
      "the agent's tool results",
      "agent: { max_result_chars: 99999999999 }\nevals:\n  - { name: a, server: s, prompt: p, rubric: x }\n",
      { line: 1, column: 28 },
      "max_result_chars must be at most 1,000,000",
    ],
    [
      "a likert band (each point a label button, a row and a column of the calibration matrix)",
      "evals:\n  - name: a\n    response: hi\n    rubric: { criteria: [{ name: c, description: d }], scale: { likert: { min: 0, max: 30000 } } }\n",
      { line: 4, column: 88 },
      "a likert scale has at most 101 points: 0..30000 has 30,001 (max may be at most min + 100)",
    ],
    [
      "a weight (a weighted sum past it is Infinity, the score NaN)",
      "evals:\n  - name: a\n    response: hi\n    rubric: { criteria: [{ name: c, description: d, weight: 1e308 }] }\n",
      { line: 4, column: 61 },
      "weight must be at most 1,000,000",
    ],
    [
      "a category's weight",
      "evals:\n  - name: a\n    response: hi\n    rubric: { categories: [{ id: c, description: d, weight: 1e308 }] }\n",
      { line: 4, column: 61 },
      "weight must be at most 1,000,000",
    ],
    [
      "evals",
      `evals:\n${"  - { name: a, response: hi, rubric: x }\n".repeat(10_001)}`,
      { line: 2, column: 3 },
      "a suite has at most 10,000 evals",
    ],
  ])("%s", (_, text, at, message) => {
    const issue = only(text);
    expect(issue).toMatchObject(at);
    expect(issue.message).toBe(message);
  });

  it.each([
    [101, 1, { line: 6, column: 9 }, "a rubric has at most 100 criteria"],
    [1, 51, { line: 9, column: 13 }, "a criterion has at most 50 anchors"],
  ])("%i criteria, %i anchors", (criteriaCount, anchorCount, at, message) => {
    const anchors = Array.from(
      { length: anchorCount },
      () => "            - { response: r, score: 1 }",
    ).join("\n");
    const criteria = Array.from(
      { length: criteriaCount - 1 },
      (_, i) => `        - { name: c${i}, description: d }`,
    ).join("\n");
    const text = `evals:\n  - name: a\n    response: hi\n    rubric:\n      criteria:\n        - name: anchored\n          description: d\n          examples:\n${anchors}\n${criteria}\n`;
    expect(only(text)).toMatchObject({ ...at, message });
  });
});

describe("what a suite multiplies out to is checked before anything is expanded", () => {
  it("an eval over the cell limit: the error names the product, at the eval", () => {
    const items = Array.from(
      { length: 4000 },
      (_, i) => `      - { id: i${i}, expected_output: out }`,
    ).join("\n");
    const text = `datasets:\n  d:\n    items:\n${items}\nevals:\n  - name: data\n    candidates: { dataset: d }\n    matrix: { models: [a, b, c] }\n    rubric: x\n`;
    const issue = only(text);
    expect(issue).toMatchObject({ line: 4005, column: 5, path: ["evals", 0] });
    expect(issue.message).toBe(
      'eval "data" plans 4,000 items × 3 models = 12,000 cells; a suite may plan at most 10,000 cells',
    );
  });

  it("an eval over the judge-call limit: cells × jurors × criteria", () => {
    const criteria = Array.from(
      { length: 100 },
      (_, i) => `        - { name: c${i}, description: d }`,
    ).join("\n");
    const text = `evals:\n  - name: wide\n    response: hi\n    judge: { jury: { size: 25 } }\n    matrix: { models: ${list(50, "m")} }\n    rubric:\n      criteria:\n${criteria}\n`;
    expect(only(text).message).toBe(
      'eval "wide" plans 50 cells × 25 jurors × 100 criteria = 125,000 judge calls; a suite may plan at most 100,000 judge calls',
    );
  });

  it("a suite over the limit in all, at its largest eval", () => {
    const evalOf = (i: number) =>
      `  - { name: e${i}, response: hi, rubric: x, matrix: { models: ${list(50, "m")}, prompts: ${list(50, "p")} } }`;
    const text = `evals:\n${[0, 1, 2, 3, 4].map(evalOf).join("\n")}\n`;
    const issue = only(text);
    expect(issue.line).toBe(2);
    expect(issue.message).toBe(
      'the suite plans 12,500 cells in all (eval "e0": 2,500); a suite may plan at most 10,000 cells',
    );
  });

  it("a prompt template that multiplies an item's text: an error at the eval, before any prompt is built", () => {
    const template = "{{expected_output}}".repeat(600);
    const text = `datasets:\n  d:\n    items:\n      - { id: big, expected_output: "${"x".repeat(1_000_000)}" }\nevals:\n  - name: amplified\n    candidates: { dataset: d }\n    prompt: "${template}"\n    rubric: x\n`;
    const draft = checkDraft({
      text,
      file: "suite.yaml",
      priceOf: () => undefined,
      defaultModel: "m",
    });
    expect(draft.plan).toBeNull();
    expect(draft.issues).toMatchObject([
      {
        line: 6,
        column: 5,
        message:
          'eval "amplified": its prompt filled from item "big" would be 600,000,000 characters; a prompt may be at most 2,097,152',
      },
    ]);
  });

  it("the editor's check answers a huge jury with the located issue and no plan", () => {
    const draft = checkDraft({
      text: "judge: { jury: { size: 99999999 } }\nevals:\n  - { name: a, response: hi, rubric: x }\n",
      file: "suite.yaml",
      priceOf: () => undefined,
      defaultModel: "m",
    });
    expect(draft.plan).toBeNull();
    expect(draft.issues).toMatchObject([
      { line: 1, column: 24, message: "jury size must be at most 25" },
    ]);
  });
});

describe("aliases, nesting and size: located issues, never an exception", () => {
  it("an alias before its anchor", () => {
    expect(
      only('evals:\n  - name: a\n    response: *r\n    rubric: "x"\nr: &r "hi"\n'),
    ).toMatchObject({
      line: 3,
      column: 15,
      message: "YAML error: unknown alias *r: an anchor &r must come before it",
    });
  });

  it("an alias inside the node it names", () => {
    expect(only("a: &a [1, *a]\nevals:\n  - { name: a, response: hi, rubric: x }\n")).toMatchObject(
      {
        line: 1,
        column: 11,
        message: expect.stringMatching(/alias \*a is inside the node it refers to/),
      },
    );
  });

  it("a billion laughs", () => {
    const lines = ['a: &a ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]'];
    for (const [i, name] of [..."bcdefghi"].entries())
      lines.push(`${name}: &${name} [${Array(9).fill(`*${"abcdefghi"[i]}`).join(", ")}]`);
    const issue = only(`${lines.join("\n")}\nevals:\n  - { name: a, response: hi, rubric: *i }\n`);
    expect(issue.message).toMatch(
      /^YAML error: aliases expand this file to more than 100,000 values/,
    );
    expect(issue.line).toBeGreaterThan(1);
  });

  it("deep nesting, flow or block, and nesting made deep by aliases", () => {
    expect(only(`evals: ${"[".repeat(20000)}${"]".repeat(20000)}\n`)).toMatchObject({
      line: 1,
      column: 71,
      message: "YAML error: the YAML nests deeper than 64 levels",
    });
    const block = Array.from({ length: 100 }, (_, i) => `${"  ".repeat(i)}k${i}:`).join("\n");
    expect(only(`${block} 1\n`)).toMatchObject({
      line: 65,
      message: "YAML error: the YAML nests deeper than 64 levels",
    });
    const chain = ["a0: &a0 [[[[[[[[[[1]]]]]]]]]]"];
    for (let i = 1; i < 10; i++) chain.push(`a${i}: &a${i} [[[[[[[[[[*a${i - 1}]]]]]]]]]]`);
    expect(only(`${chain.join("\n")}\n`).message).toMatch(
      /^YAML error: alias \*a5 makes the YAML nest deeper than 64 levels/,
    );
  });

  it("a file over the size limit, located where it passes the limit", () => {
    const line = `# ${"x".repeat(98)}\n`;
    const issue = only(line.repeat(30_000));
    expect(issue.message).toMatch(/^the suite is longer than 2,097,152 characters/);
    // 101 characters a line: the 2,097,152nd is on line 20,764.
    expect(issue.line).toBe(20_764);
  });
});

describe("counts in messages read with en-US thousands separators", () => {
  it("formatCount prints what toLocaleString('en-US') prints, without loading ICU's formatting at start-up", () => {
    const values = [
      0,
      -0,
      0.4,
      -0.4,
      7,
      999.5,
      1000,
      12_345,
      -1234,
      1_000_000,
      123_456_789.5,
      2 ** 53 + 2,
      12_345_678_901_234_567_890,
      1e21,
      2 ** 70,
      -(2 ** 70),
    ];
    for (const n of values)
      expect(formatCount(n), String(n)).toBe(Math.round(n).toLocaleString("en-US"));
    expect(formatCount(Number.POSITIVE_INFINITY)).toBe("Infinity");
  });
});
