import { describe, expect, test } from "vitest";
import { isJudgeRequest } from "../support/agent-script";
import { runGenerated } from "../support/generated-run";
import type { FakeRequest } from "../support/fake-messages-api";
import { makeWorkspace, startFakeJudge, yaml } from "./cli-harness";

// Reference-guided grading (issue 19): a dataset item whose candidate is
// generated (or live) is graded with its expected_output, expected_outputs and
// context as a labelled known-good reference, exactly once per judge request;
// never for a fixed item (it is its own answer) or with `reference: false`.

const SLOW = { timeout: 120_000 };

const DATASET = [
  "datasets:",
  "  qa:",
  "    items:",
  '      - { id: a, input: "Q-A?", expected_output: "REF-A-ONE", expected_outputs: ["REF-A-TWO"], context: ["CTX-A"] }',
  '      - { id: b, input: "Q-B?", expected_outputs: ["REF-B-ONLY"] }',
  '      - { id: c, input: "Q-C?" }',
];

const count = (text: string, what: string) => text.split(what).length - 1;

/** The whole wire text of the judge requests that graded item `id` (its prompt is Q-ID?). */
function judgeText(requests: FakeRequest[], id: string): string {
  const texts = requests
    .filter(isJudgeRequest)
    .map((r) => JSON.stringify(r.body))
    .filter((t) => t.includes(`Q-${id.toUpperCase()}?`));
  expect(texts).toHaveLength(1);
  return texts[0]!;
}

async function run(onTestFinished: Parameters<typeof makeWorkspace>[0], evalLines: string[]) {
  const { judge, cli } = await runGenerated({
    onTestFinished,
    suite: yaml(
      ...DATASET,
      "evals:",
      "  - name: answers",
      '    rubric: "Answers correctly."',
      "    candidates: { dataset: qa }",
      ...evalLines.map((l) => `    ${l}`),
    ),
    args: ["--reporter", "json"],
    generated: "GENERATED-REPLY",
    reasoning: "matches the reference",
  });
  expect(cli.code, cli.stderr + cli.stdout).toBe(0);
  const report = JSON.parse(cli.stdout) as {
    results: { cell: { item: string }; reference?: unknown }[];
  };
  return { requests: judge.api.requests, report };
}

describe.concurrent("reference-guided grading", SLOW, () => {
  test("a generated candidate is graded against the item's answers and context, each exactly once; an item without any gets none", async ({
    onTestFinished,
  }) => {
    const { requests, report } = await run(onTestFinished, ["agent: { model: claude-haiku-4-5 }"]);
    const a = judgeText(requests, "a");
    expect(count(a, "<reference>")).toBe(1);
    for (const text of ["REF-A-ONE", "REF-A-TWO", "CTX-A"]) expect(count(a, text)).toBe(1);
    // After the rubric, before the candidate.
    expect(a.indexOf("<reference>")).toBeLessThan(a.lastIndexOf("<candidate_response>"));
    expect(a.indexOf("<reference>")).toBeGreaterThan(a.indexOf("Answers correctly."));
    expect(a).toContain("known-good reference");
    // The generation request itself carries no reference.
    const generation = requests
      .filter((r) => !isJudgeRequest(r))
      .map((r) => JSON.stringify(r.body));
    expect(generation.join("")).not.toContain("REF-A");

    const b = judgeText(requests, "b");
    expect(count(b, "<reference>")).toBe(1);
    expect(count(b, "REF-B-ONLY")).toBe(1);
    expect(count(judgeText(requests, "c"), "<reference>")).toBe(0);

    expect(report.results.map((r) => [r.cell.item, r.reference])).toEqual([
      ["a", { expectedOutputs: ["REF-A-ONE", "REF-A-TWO"], context: ["CTX-A"] }],
      ["b", { expectedOutputs: ["REF-B-ONLY"], context: [] }],
      ["c", undefined],
    ]);
  });

  test("reference: false grades the generated candidate without the reference", async ({
    onTestFinished,
  }) => {
    const { requests, report } = await run(onTestFinished, [
      "agent: { model: claude-haiku-4-5 }",
      "reference: false",
    ]);
    const judged = requests.filter(isJudgeRequest).map((r) => JSON.stringify(r.body));
    expect(judged).toHaveLength(3);
    for (const text of judged) {
      expect(text).not.toContain("<reference>");
      expect(text).not.toContain("REF-A");
    }
    expect(report.results.every((r) => r.reference === undefined)).toBe(true);
  });

  test("a fixed dataset eval grades each item's expected_output as the candidate, with no reference", async ({
    onTestFinished,
  }) => {
    const ws = await makeWorkspace(onTestFinished);
    const judge = await startFakeJudge(onTestFinished);
    await ws.write(
      "suite.yaml",
      yaml(
        "datasets:",
        "  qa:",
        "    items:",
        '      - { id: a, input: "Q-A?", expected_output: "REF-A-ONE", context: ["CTX-A"] }',
        "evals:",
        "  - name: answers",
        '    rubric: "Answers correctly."',
        "    candidates: { dataset: qa }",
      ),
    );
    const cli = await ws.cli(["eval", "--config", "suite.yaml", "--reporter", "json"], judge.env);
    expect(cli.code, cli.stderr).toBe(0);
    const a = judgeText(judge.api.requests, "a");
    expect(count(a, "<reference>")).toBe(0);
    expect(count(a, "REF-A-ONE")).toBe(1);
    expect(a).not.toContain("CTX-A");
  });

  test("a category review of a generated candidate gets the reference too, and its EvaluationReport records it", async ({
    onTestFinished,
  }) => {
    const ws = await makeWorkspace(onTestFinished);
    const judge = await startFakeJudge(onTestFinished, {
      respond: (request) =>
        isJudgeRequest(request)
          ? {
              toolInput: {
                reasoning: "as the reference",
                score: "pass",
                evidence: [],
                findings: [],
              },
            }
          : { text: "GENERATED-REPLY" },
    });
    await ws.write(
      "suite.yaml",
      yaml(
        ...DATASET,
        "rubrics:",
        "  answer:",
        "    name: Answer review",
        '    version: "1"',
        "    review_type: answer",
        "    categories:",
        "      - { id: correct, name: Correct, description: Agrees with the known-good answer., required: true }",
        "evals:",
        "  - name: answers",
        "    rubric: { ref: answer }",
        "    candidates: { dataset: qa }",
        "    agent: { model: claude-haiku-4-5 }",
      ),
    );
    const cli = await ws.cli(["eval", "--config", "suite.yaml", "--reporter", "json"], judge.env);
    expect(cli.code, cli.stderr + cli.stdout).toBe(0);
    const a = judgeText(judge.api.requests, "a");
    expect(count(a, "<reference>")).toBe(1);
    for (const text of ["REF-A-ONE", "REF-A-TWO", "CTX-A"]) expect(count(a, text)).toBe(1);
    expect(a.indexOf("<reference>")).toBeLessThan(a.lastIndexOf("<candidate_response>"));
    expect(count(judgeText(judge.api.requests, "c"), "<reference>")).toBe(0);
    const report = JSON.parse(cli.stdout) as {
      results: { cell: { item: string }; review?: { report: { reference?: unknown } } }[];
    };
    expect(report.results.map((r) => [r.cell.item, r.review?.report.reference])).toEqual([
      [
        "a",
        {
          id: "a",
          input: "Q-A?",
          expected_output: "REF-A-ONE",
          expected_outputs: ["REF-A-ONE", "REF-A-TWO"],
          context: ["CTX-A"],
        },
      ],
      ["b", { id: "b", input: "Q-B?", expected_output: "REF-B-ONLY" }],
      ["c", undefined],
    ]);
  });
});
