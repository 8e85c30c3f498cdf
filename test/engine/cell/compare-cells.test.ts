import { describe, expect, it } from "vitest";
import { loadSuite } from "../../../lib/config/load-suite";
import type { ConfigIssue } from "../../../lib/config/types";
import { createFakeJudge, type FakeAnswer } from "../../support/fake-judge";
import { explainYaml, runYaml } from "../../support/run-yaml";
import type { JudgeRequest, VerdictKind } from "../../../lib/engine/ports/judge-port";

// `compare: { eval, a, b }` on fixed candidates, through the real engine with
// a scripted judge: which cells pair up, what the judge is shown, how the
// open coordinates multiply the pairs; and the loader's errors.

const slotA = (request: JudgeRequest<VerdictKind>) =>
  /<response_a>\n([\s\S]*?)\n<\/response_a>/.exec(request.candidatePrompt)?.[1] ?? "";

// Prefers whichever side's text says "one sentence", in either order.
const judge = () =>
  createFakeJudge((request): FakeAnswer => {
    if (request.verdict !== "pairwise") return { score: 0.8 };
    return {
      verdict: {
        reasoning: "tighter",
        winner: slotA(request).includes("one sentence") ? "A" : "B",
        confidence: 0.8,
      },
    };
  });

describe("comparing two matrix cells of a fixed-response eval", () => {
  it("two prompts for the same response: each output carries its own prompt, one pair per judge-model-free candidate", async () => {
    const fake = judge();
    const report = await runYaml(
      `
evals:
  - name: summary
    response: "2.3 adds per-tenant rate limits."
    rubric: "Accurate summary."
    matrix:
      models: [claude-sonnet-4-6, claude-haiku-4-5]
      prompts: ["Summarize the release.", "Summarize the release in one sentence."]
  - name: prompt 1 vs 2
    rubric: "Which response fits its prompt better?"
    compare: { eval: summary, a: { prompt: 1 }, b: { prompt: 2 } }
`,
      { judge: fake },
    );
    const result = report.results.find((r) => r.eval === "prompt 1 vs 2")!;
    const pairwise = result.pairwise!;
    // The judge-model cells share one candidate: one pair, not two.
    expect(pairwise.pairs.map((p) => p.item)).toEqual(["1"]);
    expect(pairwise.labels).toEqual({ a: "prompt=#1", b: "prompt=#2" });
    expect(pairwise.result.comparisons[0]).toMatchObject({
      input: "",
      output_a: "Prompt: Summarize the release.\n\nResponse: 2.3 adds per-tenant rate limits.",
      output_b:
        "Prompt: Summarize the release in one sentence.\n\nResponse: 2.3 adds per-tenant rate limits.",
      winner: "B",
    });
    const pairwiseRequests = fake.requests.filter((r) => r.verdict === "pairwise");
    expect(pairwiseRequests).toHaveLength(2);
    expect(pairwiseRequests.every((r) => !r.candidatePrompt.includes("<user_prompt>"))).toBe(true);
    expect(result.candidate.response).toBe(
      'pairwise: cells prompt=#1 (A) vs prompt=#2 (B) of eval "summary", 1 pair, each judged in both orders',
    );
  });

  it("what neither side names pairs the cells: two prompt templates over three dataset items make three pairs, one per item", async () => {
    const yaml = `
datasets:
  notes:
    items:
      - { id: v23, input: "2.3", expected_output: "Rate limits." }
      - { id: v24, input: "2.4", expected_output: "Rounding fix." }
      - { id: v25, input: "2.5", expected_output: "Faster search." }
evals:
  - name: notes
    candidates: { dataset: notes }
    rubric: "Accurate."
    matrix: { prompts: ["Release {{input}}?", "Release {{input}}, in one sentence?"] }
  - name: template 1 vs 2
    rubric: "Which is better?"
    compare: { eval: notes, a: { prompt: 1 }, b: { prompt: 2 }, labels: { a: plain, b: terse }, expect: B }
`;
    const plan = explainYaml(yaml);
    const compared = plan.cells.find((c) => c.name === "template 1 vs 2")!;
    expect(compared.judgeCalls).toBe(6);
    expect(compared.candidate).toBe('3 pairs of cells of eval "notes" (fixed responses)');

    const report = await runYaml(yaml, { judge: judge() });
    const result = report.results.find((r) => r.eval === "template 1 vs 2")!;
    expect(result.pairwise!.pairs.map((p) => [p.item, p.winner])).toEqual([
      ["v23", "B"],
      ["v24", "B"],
      ["v25", "B"],
    ]);
    // Different prompts, the same expected output: each side's text carries its prompt; the judge chose terse (B) each time.
    expect(result.pairwise!.result.comparisons[1]!.output_a).toBe(
      "Prompt: Release 2.4?\n\nResponse: Rounding fix.",
    );
    expect(result.pairwise!.result.comparisons[1]!.output_b).toBe(
      "Prompt: Release 2.4, in one sentence?\n\nResponse: Rounding fix.",
    );
    expect(result.status).toBe("passed");
    expect(result.reason).toBe("B (terse) wins 3 of 3, confidence 1.00");
  });

  it("a side defers when the cells it compares cannot be graded (no key)", async () => {
    const report = await runYaml(
      `
evals:
  - name: s
    response: "x"
    rubric: "r"
    matrix: { prompts: ["p1", "p2"] }
  - name: c
    rubric: "Which?"
    compare: { eval: s, a: { prompt: 1 }, b: { prompt: 2 } }
`,
      { judge: judge(), judgeUnavailable: "no judge key" },
    );
    expect(report.results.find((r) => r.eval === "c")).toMatchObject({
      status: "deferred",
      note: "no judge key",
    });
  });
});

describe("compare: { eval, a, b } load-time errors", () => {
  const issuesOf = (
    compare: string,
    source = '    matrix: { prompts: ["p1", "p2"] }',
  ): ConfigIssue[] => {
    const loaded = loadSuite({
      text: `evals:\n  - name: s\n    response: "x"\n    rubric: "r"\n${source}\n  - name: c\n    rubric: "Which?"\n    compare: ${compare}\n`,
      file: "suite.yaml",
    });
    if (loaded.ok) throw new Error("expected the suite to be invalid");
    return loaded.issues;
  };
  const messages = (issues: ConfigIssue[]) =>
    issues.map((i) => `${i.line}:${i.column} ${i.message}`);

  it("an unknown eval, or its own name", () => {
    expect(messages(issuesOf("{ eval: t, a: { prompt: 1 }, b: { prompt: 2 } }"))).toEqual([
      '8:22 unknown eval "t"; compare: { eval } names another eval of this suite, whose matrix cells are compared',
    ]);
    expect(messages(issuesOf("{ eval: c, a: { prompt: 1 }, b: { prompt: 2 } }"))).toEqual([
      "8:22 an eval cannot compare its own cells: name the eval that has the matrix",
    ]);
  });

  it("a prompt past the end, and sides that pick the same cells", () => {
    expect(messages(issuesOf("{ eval: s, a: { prompt: 1 }, b: { prompt: 3 } }"))).toEqual([
      '8:56 eval "s" has 2 prompts in matrix.prompts; prompt is a position from 1 to 2',
    ]);
    expect(messages(issuesOf("{ eval: s, a: { prompt: 2 }, b: { prompt: 2 } }"))).toEqual([
      "8:14 a and b pick the same cells: they must differ in agent or prompt (what one side leaves out, it takes from the other)",
    ]);
  });

  it("a judge model is not a cell's coordinate; a side must name one; the forms do not mix", () => {
    expect(messages(issuesOf("{ eval: s, a: { prompt: 1, model: m }, b: { prompt: 2 } }"))).toEqual(
      [
        "8:48 the judge model does not change what is graded (cells that differ only in it grade the same candidate); pick cells by agent or prompt",
      ],
    );
    expect(messages(issuesOf("{ eval: s, a: {}, b: { prompt: 2 } }"))).toEqual([
      "8:28 name this side's cells by agent or prompt",
    ]);
    expect(
      messages(
        issuesOf('{ eval: s, a: { prompt: 1 }, b: { prompt: 2 }, output_a: "x", output_b: "y" }'),
      ),
    ).toEqual([
      "8:14 give either eval with a and b (two matrix cells), or the outputs themselves (input / output_a / output_b, or items), not both",
    ]);
  });
});

describe("comparing cells of an eval that cannot be planned here", () => {
  it("defers with the source eval's own reason (its dataset file was not read)", async () => {
    const report = await runYaml(
      `
servers:
  s: { command: node }
datasets:
  qa: { file: qa.json }
evals:
  - name: runs
    server: s
    candidates: { dataset: qa }
    rubric: "r"
    matrix: { agents: [claude-haiku-4-5, claude-sonnet-4-6] }
  - name: c
    rubric: "Which?"
    compare: { eval: runs, a: { agent: claude-haiku-4-5 }, b: { agent: claude-sonnet-4-6 } }
`,
      { judge: judge() },
    );
    expect(report.results.find((r) => r.eval === "c")!.note).toBe(
      'cell runs cannot be graded: the items of dataset "qa" are in qa.json, which was not read here (a run from the dashboard or a queue worker reads no files; use inline items:)',
    );
  });
});

describe("eval --explain on a comparison of live cells", () => {
  const yaml = `
servers:
  s: { command: node }
agent: { max_turns: 5 }
evals:
  - name: runs
    server: s
    prompt: "Do it."
    rubric: "r"
    matrix: { agents: [claude-haiku-4-5, claude-sonnet-4-6], models: [claude-sonnet-4-6, claude-haiku-4-5] }
  - name: c
    rubric: "Which?"
    compare: { eval: runs, a: { agent: claude-haiku-4-5 }, b: { agent: claude-sonnet-4-6 } }
`;
  it("counts each agent run once: the judge-model cells and the comparison share the two runs", () => {
    const plan = explainYaml(yaml);
    // 2 agents x 2 judge models = 4 cells, but 2 runs of up to 5 turns; the comparison adds none.
    expect(plan.totals.agentCalls).toBe(10);
    const compared = plan.cells.find((c) => c.name === "c")!;
    expect(compared.candidate).toBe(
      '1 pair of cells of eval "runs" (2 live runs, shared with eval "runs"\'s own cells)',
    );
    expect(compared.judgeCalls).toBe(2);
  });
});
