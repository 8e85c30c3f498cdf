import { describe, expect, it } from "vitest";
import { loadSuite } from "../../lib/config/load-suite";
import type { ConfigIssue } from "../../lib/config/types";
import { renderPromptTemplate } from "../../lib/config/prompt-template";

// `candidates: { dataset }`: the loader's errors, each at the line a user has
// to change, and the prompt templates that dataset items fill.

function load(text: string) {
  return loadSuite({ text, file: "suite.yaml" });
}

function issuesOf(text: string): ConfigIssue[] {
  const result = load(text);
  if (result.ok) throw new Error("expected the suite to be invalid");
  return result.issues;
}

const lines = (...xs: string[]) => `${xs.join("\n")}\n`;

const DATASET = [
  "datasets:",
  "  qa:",
  "    items:",
  '      - { id: a, input: "Q1?", expected_output: "A1." }',
  '      - { id: b, input: "Q2?" }',
];

describe("candidates: { dataset }", () => {
  it("loads: the eval keeps the dataset name, and a file dataset is marked unread until the CLI reads it", () => {
    const result = load(
      lines(
        "datasets:",
        "  qa: { file: qa.json }",
        "evals:",
        "  - name: e",
        "    candidates: { dataset: qa }",
        '    rubric: "Correct."',
      ),
    );
    if (!result.ok) throw new Error(JSON.stringify(result.issues));
    expect(result.value.evals[0]!.candidates).toEqual({ dataset: "qa" });
    expect(result.value.datasets?.qa).toMatchObject({ file: "qa.json", unread: true, items: [] });
    expect(result.warnings).toEqual([]);
  });

  it("an unknown dataset is an error at its name, listing the defined ones", () => {
    const issues = issuesOf(
      lines(
        ...DATASET,
        "evals:",
        "  - name: e",
        "    candidates: { dataset: qq }",
        '    rubric: "Correct."',
      ),
    );
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({
      line: 8,
      column: 28,
      message: 'unknown dataset "qq"; defined datasets: qa',
    });
  });

  it("a fixed eval's item without expected_output is an error at that item", () => {
    const issues = issuesOf(
      lines(
        ...DATASET,
        "evals:",
        "  - name: e",
        "    candidates: { dataset: qa }",
        '    rubric: "Correct."',
      ),
    );
    expect(issues.map((i) => [i.line, i.message])).toEqual([
      [
        5,
        'item "b" of dataset "qa" has no expected_output, which eval "e" grades as its response (or give the eval a server: to run the item\'s input live)',
      ],
    ]);
  });

  it("a live eval needs each item's input unless its prompt template says what to run", () => {
    const live = (...extra: string[]) =>
      lines(
        "servers:",
        "  s: { command: node }",
        "datasets:",
        "  qa:",
        "    items:",
        "      - { id: a }",
        "evals:",
        "  - name: e",
        "    server: s",
        "    candidates: { dataset: qa }",
        ...extra,
        '    rubric: "Correct."',
      );
    expect(issuesOf(live()).map((i) => [i.line, i.message])).toEqual([
      [
        6,
        'item "a" of dataset "qa" has no input for eval "e" to run against server "s" (or give the eval a prompt: template)',
      ],
    ]);
    expect(load(live('    prompt: "Say hello as item {{id}}."')).ok).toBe(true);
  });

  it("takes no response, document or compare, and no live settings without a server", () => {
    const issues = issuesOf(
      lines(
        "datasets:",
        "  qa:",
        "    items:",
        '      - { id: a, expected_output: "A1." }',
        "evals:",
        "  - name: e",
        "    candidates: { dataset: qa }",
        '    response: "x"',
        '    rubric: "Correct."',
      ),
    );
    expect(issues.map((i) => [i.line, i.message])).toEqual([
      [8, 'this eval\'s candidates come from dataset "qa"; it takes no response'],
    ]);
    const agent = issuesOf(
      lines(
        "datasets:",
        "  qa:",
        "    items:",
        '      - { id: a, expected_output: "A1." }',
        "evals:",
        "  - name: e",
        "    candidates: { dataset: qa }",
        "    agent: { max_turns: 2 }",
        '    rubric: "Correct."',
      ),
    );
    expect(agent.map((i) => [i.line, i.message])).toEqual([
      [
        8,
        "agent: configures a live run, but without server: this eval grades each item's expected_output; add server: to run each item's input live, or agent.model to have a model answer it",
      ],
    ]);
  });

  it("duplicate item ids and an empty dataset are errors: results are named after items", () => {
    const dup = issuesOf(
      lines(
        "datasets:",
        "  qa:",
        "    items:",
        '      - { id: a, expected_output: "1" }',
        '      - { id: a, expected_output: "2" }',
        "evals:",
        "  - name: e",
        "    candidates: { dataset: qa }",
        '    rubric: "Correct."',
      ),
    );
    expect(dup.map((i) => [i.line, i.message])).toEqual([
      [
        5,
        'item "a" of dataset "qa": item ids must be unique, since eval "e" names a result after each',
      ],
    ]);
    const empty = issuesOf(
      lines(
        "datasets:",
        "  qa: { items: [] }",
        "evals:",
        "  - name: e",
        "    candidates: { dataset: qa }",
        '    rubric: "Correct."',
      ),
    );
    expect(empty.map((i) => [i.line, i.message])).toEqual([
      [2, 'dataset "qa" has no items: eval "e" would grade nothing'],
    ]);
  });

  it("an unknown placeholder is an error at its prompt; a placeholder without candidates is a warning", () => {
    const issues = issuesOf(
      lines(
        ...DATASET.slice(0, 4),
        "evals:",
        "  - name: e",
        "    candidates: { dataset: qa }",
        "    matrix:",
        '      prompts: ["{{input}}", "{{question}}"]',
        '    rubric: "Correct."',
      ),
    );
    expect(issues.map((i) => [i.line, i.message])).toEqual([
      [
        9,
        "unknown placeholder {{question}}: a dataset item fills {{input}}, {{context}}, {{expected_output}}, {{id}}",
      ],
    ]);
    const plain = load(
      lines(
        "evals:",
        "  - name: e",
        '    prompt: "Answer {{input}}"',
        '    response: "x"',
        '    rubric: "Correct."',
      ),
    );
    if (!plain.ok) throw new Error(JSON.stringify(plain.issues));
    expect(plain.warnings.map((w) => [w.line, w.message])).toEqual([
      [
        3,
        "{{input}} is filled only in an eval with candidates: { dataset: ... }; here the prompt is sent as written",
      ],
    ]);
  });
});

describe("renderPromptTemplate", () => {
  const item = {
    id: "q7",
    input: "What changed?",
    expectedOutput: "Rate limits.",
    context: ["Notes A.", "Notes B."],
    annotations: [],
  };
  it("fills every placeholder, context joined by blank lines, and tolerates spaces inside the braces", () => {
    expect(
      renderPromptTemplate("[{{ id }}] {{context}}\n{{input}} (ref: {{expected_output}})", item),
    ).toBe("[q7] Notes A.\n\nNotes B.\nWhat changed? (ref: Rate limits.)");
  });
  it("without a template, the item's input is the prompt", () => {
    expect(renderPromptTemplate(undefined, item)).toBe("What changed?");
    expect(renderPromptTemplate(undefined, { id: "x", annotations: [] })).toBeUndefined();
  });
});
