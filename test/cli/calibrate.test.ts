import { describe, expect, test } from "vitest";
import { candidateOf, makeWorkspace, startFakeJudge, yaml } from "./cli-harness";
import type { CalibrationResult } from "../../lib/engine/results/trust";

// `rubric-studio calibrate` and `eval --repeat` as a user runs them, the real
// SDK against the Messages API stand-in.

const SUITE = yaml(
  "datasets:",
  "  answers: { file: data/answers.json }",
  "evals:",
  "  - name: support answers",
  '    prompt: "How do I reset my password?"',
  '    response: "Use the reset link on the sign-in page."',
  "    dataset: answers",
  "    rubric:",
  "      criteria:",
  "        - name: actionable",
  '          description: "Tells the user exactly what to do."',
  "          examples:",
  '            - { response: "Click Forgot password on the sign-in page.", score: 1.0 }',
  '            - { response: "Passwords are important.", score: 0.0 }',
);

// The Go package's ReferenceDataset JSON.
const DATASET = JSON.stringify({
  id: "answers",
  name: "Support answers",
  items: [
    {
      id: "a1",
      input: "How do I export data?",
      expected_output: "Go to Settings > Export.",
      annotations: [{ name: "actionable", score: 1, annotator_type: "human", annotator_id: "ana" }],
    },
    {
      id: "a2",
      input: "Why is it slow?",
      expected_output: "It depends.",
      annotations: [{ name: "actionable", score: 0, annotator_type: "human" }],
    },
  ],
});

describe.concurrent("rubric-studio calibrate", () => {
  test("anchors and dataset items graded, MAE and kappa per criterion, exit 1 past --max-error", async ({
    onTestFinished,
  }) => {
    const ws = await makeWorkspace(onTestFinished);
    // A judge that is generous: 0.6 to every candidate.
    const judge = await startFakeJudge(onTestFinished, {
      respond: () => ({ verdict: { reasoning: "seems fine", score: 0.6 } }),
    });
    await ws.write("suite.yaml", SUITE);
    await ws.write("data/answers.json", DATASET);
    const run = await ws.cli(
      [
        "calibrate",
        "--config",
        "suite.yaml",
        "--max-error",
        "0.3",
        "--output",
        "out/calibration.json",
      ],
      judge.env,
    );

    // Two anchors and two annotated items: four judge calls, never the anchor's own label in view.
    expect(judge.api.requests).toHaveLength(4);
    for (const request of judge.api.requests) {
      const candidate = candidateOf(request);
      if (candidate.startsWith("Click") || candidate.startsWith("Passwords"))
        expect(request.system).not.toContain(candidate);
    }
    const result = JSON.parse(await ws.read("out/calibration.json")) as CalibrationResult;
    const c = result.criteria[0]!;
    expect(c.items.map((i) => [i.source, i.id, i.label, i.judged])).toEqual([
      ["anchor", "1", 1, 0.6],
      ["anchor", "2", 0, 0.6],
      ["dataset", "a1", 1, 0.6],
      ["dataset", "a2", 0, 0.6],
    ]);
    // |0.6 - 1| and |0.6 - 0| twice each: MAE 0.5; the two labelled 0 are off by more than 0.25.
    expect(c.mae).toBeCloseTo(0.5, 10);
    expect(c.outliers).toBe(4);
    expect(c.kappa.weights).toBe("quadratic");
    expect(result.overMaxError).toEqual([
      { eval: "support answers", item: "actionable", mae: 0.5 },
    ]);
    expect(run.stdout).toContain("✗ support answers › actionable (unit): MAE 0.500");
    expect(run.code).toBe(1);
  });

  test("only annotator_type human is a person: llm and rule annotations are calibrated apart, named as what they are, never counted as people's labels", async ({
    onTestFinished,
  }) => {
    const ws = await makeWorkspace(onTestFinished);
    const judge = await startFakeJudge(onTestFinished, {
      respond: () => ({ verdict: { reasoning: "seems fine", score: 1 } }),
    });
    await ws.write("suite.yaml", SUITE);
    const item = (id: string, annotations: object[]) => ({
      id,
      input: "Q?",
      expected_output: `Answer ${id}.`,
      annotations,
    });
    await ws.write(
      "data/answers.json",
      JSON.stringify({
        id: "answers",
        name: "Support answers",
        items: [
          item("h1", [
            { name: "actionable", score: 1, annotator_type: "human", annotator_id: "ana" },
          ]),
          item("m1", [
            { name: "actionable", score: 0, annotator_type: "llm", annotator_id: "gpt" },
          ]),
          item("m2", [{ name: "actionable", score: 0, annotator_type: "llm" }]),
          item("r1", [{ name: "actionable", score: 1, annotator_type: "rule" }]),
        ],
      }),
    );
    const run = await ws.cli(
      ["calibrate", "--config", "suite.yaml", "--output", "out/calibration.json"],
      judge.env,
    );
    const result = JSON.parse(await ws.read("out/calibration.json")) as CalibrationResult;
    // People's labels (the two anchors and h1) in one row; each automated labeller's in its own.
    expect(
      result.criteria.map((c) => [c.item, c.labelledBy ?? "people", c.items.map((i) => i.id)]),
    ).toEqual([
      ["actionable", "people", ["1", "2", "h1"]],
      ["actionable", "llm", ["m1", "m2"]],
      ["actionable", "rule", ["r1"]],
    ]);
    // The judge (1 everywhere) disagrees with the llm's 0s: that is not an error against people.
    expect(result.criteria[0]!.mae).toBeCloseTo(1 / 3, 10);
    expect(result.criteria[1]!.mae).toBe(1);
    expect(run.stdout).toContain(
      "Calibration: 6 labelled items (3 by people, 2 by llm, 1 by rule annotators), tolerance ±0.25",
    );
    expect(run.stdout).toContain(
      "! support answers › actionable (unit), labels by llm annotators, not people: MAE 1.000",
    );
    expect(run.stdout).toContain("    dataset m1 (llm:gpt): labelled 0.00, judged 1.00");
  });

  test("eval --repeat 3: every result three times and the flip rate in the json report", async ({
    onTestFinished,
  }) => {
    const ws = await makeWorkspace(onTestFinished);
    let n = 0;
    const judge = await startFakeJudge(onTestFinished, {
      respond: () => ({ verdict: { reasoning: "r", score: n++ % 3 === 1 ? 0.2 : 0.9 } }),
    });
    await ws.write(
      "suite.yaml",
      yaml("evals:", "  - name: e", "    response: r", '    rubric: "Good."'),
    );
    const run = await ws.cli(
      [
        "eval",
        "--config",
        "suite.yaml",
        "--repeat",
        "3",
        "--reporter",
        "pretty,json",
        "--output",
        "out",
        "--no-color",
      ],
      judge.env,
    );
    expect(judge.api.requests).toHaveLength(3);
    // The Flipped column counts the items that flipped, not the eval's name again.
    expect(run.stdout).toMatch(/^ {2}Eval +Criterion +Items +Flipped +Flip rate$/m);
    expect(run.stdout).toMatch(/^ {2}e +\(eval\) +1 +1 +100%$/m);
    const report = JSON.parse(await ws.read("out")) as {
      results: { name: string; status: string }[];
      repeat: { runs: number; flips: { item: string; rate: number }[] };
    };
    expect(report.results.map((r) => [r.name, r.status])).toEqual([
      ["e [repeat 1/3]", "passed"],
      ["e [repeat 2/3]", "failed"],
      ["e [repeat 3/3]", "passed"],
    ]);
    expect(report.repeat).toEqual({
      runs: 3,
      flips: [{ eval: "e", item: "(eval)", items: 1, flipped: 1, rate: 1, flippedIds: ["e"] }],
    });
    expect(run.code).toBe(1);
  });
});
